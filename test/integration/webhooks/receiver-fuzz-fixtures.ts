/**
 * What the receiver-fuzz.test files share: their fixtures and helpers.
 */
import { Pool } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { AdjustableClock, toRfc3339Seconds } from '../../../electron/core/clock';
import { createDeliveryDedup } from '../../../electron/webhooks/dedup/dedup';
import { createPublicKeyCache } from '../../../electron/webhooks/receive/public-key-cache';
import { createWebhookReceiver, type WebhookReceiver } from '../../../electron/webhooks/receive/receiver';
import type { KickEvent } from '../../../electron/webhooks/events/types';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { MemoryJournal } from '../../helpers/memory-journal';
import { listedGate } from './own-channel-fixtures';
import {
  buildDelivery,
  createTestKey,
  samplePayloads,
  signDelivery,
  type TestDelivery,
} from '../../helpers/webhook-signing';
import { createRng, type Rng, type Mutant, ALL_HEADERS, tripleKey, garbage, set } from './receiver-fuzz-helpers';
export {
  createRng,
  type Rng,
  type Mutant,
  SIGNED_HEADERS,
  ALL_HEADERS,
  sha,
  tripleKey,
  garbage,
  set,
  get,
} from './receiver-fuzz-helpers';

export const SEED = 0x6b69636b; // "kick"
export const TOTAL = 10_240;
export const CONCURRENCY = 16;
export const MAX_BODY = 8 * 1024;
export const T0 = Date.UTC(2025, 3, 1, 7, 56, 19);

export const key = createTestKey();
export const wrongKey = createTestKey();

export const fx = {} as {
  receiver: WebhookReceiver;
  pool: Pool;
  url: URL;
};

export const journal = new MemoryJournal();
export const events: KickEvent[] = [];
export const clock = new AdjustableClock({ now: () => T0 });
/** tripleKey → the one valid signature, for everything the valid key signed inside the window. */
export const signed = new Map<string, string>();
export const base: TestDelivery[] = [];
export const extra = {
  wrongKey: [] as string[],
  otherBody: [] as { index: number; signature: string }[],
  outOfWindow: [] as TestDelivery[],
};

/** Builds one mutant from a base delivery; may stack a second mutation. */
export function mutate(rng: Rng, depth = 0): Mutant {
  const index = rng.int(base.length);
  const d = base[index]!;
  let headers: [string, string][] = Object.entries(d.headers);
  let body = Buffer.from(d.body);
  const kinds = [
    'identical',
    'byte-flip',
    'byte-insert',
    'byte-delete',
    'truncate',
    'append',
    'oversize',
    'non-json',
    'header-remove',
    'header-duplicate',
    'header-garbage',
    'unsigned-header-change',
    'signature-bit-flip',
    'signature-truncate',
    'signature-noncanonical',
    'signature-wrong-key',
    'signature-of-other-body',
    'signature-of-other-delivery',
    'timestamp-shift',
    'swapped-id',
    'resigned-out-of-window',
    'content-type',
    'stacked',
  ] as const;
  const kind = depth > 0 ? rng.pick(kinds.slice(1, -1)) : rng.pick(kinds);
  const sig = d.headers['Kick-Event-Signature']!;
  switch (kind) {
    case 'identical':
      break;
    case 'byte-flip': {
      const at = rng.int(body.length);
      body[at] = body[at]! ^ (1 + rng.int(255));
      break;
    }
    case 'byte-insert': {
      const at = rng.int(body.length + 1);
      body = Buffer.concat([body.subarray(0, at), Buffer.from([rng.int(256)]), body.subarray(at)]);
      break;
    }
    case 'byte-delete': {
      const at = rng.int(body.length);
      body = Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
      break;
    }
    case 'truncate':
      body = body.subarray(0, rng.int(body.length));
      break;
    case 'append':
      body = Buffer.concat([body, Buffer.from(garbage(rng, 1 + rng.int(8)), 'latin1')]);
      break;
    case 'oversize':
      body = Buffer.concat([body, Buffer.alloc(MAX_BODY + 1 + rng.int(4096) - body.length, 0x20)]);
      break;
    case 'non-json':
      body = Buffer.from(Array.from({ length: 1 + rng.int(600) }, () => rng.int(256)));
      break;
    case 'header-remove':
      headers = set(headers, rng.pick(ALL_HEADERS), undefined);
      break;
    case 'header-duplicate': {
      const name = rng.pick(ALL_HEADERS);
      const copy = rng.int(2) === 0 ? d.headers[name]! : garbage(rng, 1 + rng.int(40));
      headers = [...headers, [name, copy]];
      break;
    }
    case 'header-garbage': {
      const name = rng.pick(ALL_HEADERS);
      headers = set(headers, name, garbage(rng, rng.int(3) === 0 ? 513 + rng.int(200) : 1 + rng.int(60)));
      break;
    }
    case 'unsigned-header-change': {
      const name = rng.pick(['Kick-Event-Type', 'Kick-Event-Version', 'Kick-Event-Subscription-Id']);
      headers = set(headers, name, rng.pick(['chat.message.sent', 'kicks.gifted', '2', '01OTHERSUB', 'x']));
      break;
    }
    case 'signature-bit-flip': {
      const raw = Buffer.from(sig, 'base64');
      const bit = rng.int(raw.length * 8);
      raw[bit >> 3] = raw[bit >> 3]! ^ (1 << (bit & 7));
      headers = set(headers, 'Kick-Event-Signature', raw.toString('base64'));
      break;
    }
    case 'signature-truncate':
      headers = set(headers, 'Kick-Event-Signature', sig.slice(0, 1 + rng.int(sig.length - 1)));
      break;
    case 'signature-noncanonical': {
      const variants = [
        sig.replace(/=+$/, ''),
        sig.replace(/\+/g, '-').replace(/\//g, '_'),
        `${sig.slice(0, 64)}\t${sig.slice(64)}`,
        `${sig.slice(0, 100)}=${sig.slice(100)}`,
        `${sig}=`,
        `A${sig}`,
      ];
      headers = set(headers, 'Kick-Event-Signature', rng.pick(variants));
      break;
    }
    case 'signature-wrong-key': {
      const i = rng.int(extra.wrongKey.length);
      return {
        kind,
        headers: set(Object.entries(base[i]!.headers), 'Kick-Event-Signature', extra.wrongKey[i]),
        body: base[i]!.body,
      };
    }
    case 'signature-of-other-body': {
      const { index: i, signature } = rng.pick(extra.otherBody);
      return {
        kind,
        headers: set(Object.entries(base[i]!.headers), 'Kick-Event-Signature', signature),
        body: base[i]!.body,
      };
    }
    case 'signature-of-other-delivery':
      headers = set(headers, 'Kick-Event-Signature', rng.pick(base).headers['Kick-Event-Signature']);
      break;
    case 'timestamp-shift': {
      const shiftMs = (rng.int(2) === 0 ? 1 : -1) * (1 + rng.int(3600)) * 1000;
      headers = set(headers, 'Kick-Event-Message-Timestamp', toRfc3339Seconds(Date.parse(d.timestamp) + shiftMs));
      break;
    }
    case 'swapped-id':
      headers = set(headers, 'Kick-Event-Message-Id', rng.pick(base).messageId);
      break;
    case 'resigned-out-of-window': {
      const o = rng.pick(extra.outOfWindow);
      return { kind, headers: Object.entries(o.headers), body: o.body };
    }
    case 'content-type':
      headers = set(
        headers,
        'Content-Type',
        rng.pick(['text/plain', 'application/jsonp', 'json', '', garbage(rng, 12)]),
      );
      break;
    case 'stacked': {
      const first = mutate(rng, 1);
      return { kind: `stacked(${first.kind})`, headers: first.headers, body: first.body };
    }
  }
  return { kind, headers, body };
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeAll(async () => {
    fx.receiver = createWebhookReceiver({
      port: 0,
      clock,
      maxBodyBytes: MAX_BODY,
      publicKey: createPublicKeyCache({ clock, fetchPublicKey: () => Promise.resolve(key.publicKeyPem) }),
      journal,
      dedup: createDeliveryDedup(),
      gate: listedGate(),
      onEvent: (event) => events.push(event),
      log: () => undefined,
    });
    fx.url = new URL((await fx.receiver.start()).url);
    fx.pool = new Pool(fx.url.origin, { connections: CONCURRENCY, pipelining: 1 });

    // Signing costs ~1 ms each, so the valid material is made once and mutated many times.
    const rng = createRng(SEED ^ 0xabcdef);
    const payloads = samplePayloads(T0);
    for (let i = 0; i < 160; i++) {
      const type = KICK_EVENT_TYPES[i % KICK_EVENT_TYPES.length]!;
      const d = buildDelivery({
        type,
        payload: { ...payloads[type], fuzz_index: i },
        privateKey: key.privateKey,
        atMs: T0 - rng.int(1_700) * 1000,
      });
      base.push(d);
      signed.set(tripleKey(d.messageId, d.timestamp, d.body), d.headers['Kick-Event-Signature']!);
    }
    for (let i = 0; i < 40; i++) {
      const d = base[i]!;
      extra.wrongKey.push(signDelivery(d.messageId, d.timestamp, d.body, wrongKey.privateKey));
      const other = Buffer.concat([d.body.subarray(0, d.body.length - 1), Buffer.from(',"x":1}')]);
      extra.otherBody.push({ index: i, signature: signDelivery(d.messageId, d.timestamp, other, key.privateKey) });
      // Validly signed, but outside the replay window: must be rejected as stale (or future).
      const shift = i % 2 === 0 ? -(48 * 3600 + 1 + rng.int(86_400)) * 1000 : (301 + rng.int(86_400)) * 1000;
      extra.outOfWindow.push(
        buildDelivery({
          type: d.headers['Kick-Event-Type']!,
          payload: d.body,
          privateKey: key.privateKey,
          messageId: d.messageId,
          atMs: T0 + shift,
        }),
      );
    }
  });

  afterAll(async () => {
    await fx.pool?.close();
    await fx.receiver?.stop();
  });
}

/**
 * Forgery fuzz: 10,000+ mutated deliveries over real HTTP (keep-alive, 16 in flight), from a seeded PRNG,
 * against one receiver. The property: the receiver accepts (200) only deliveries whose signed parts — the
 * message id, the timestamp and the raw body — are exactly what the valid key signed, with exactly that
 * signature. Everything else (flipped, inserted, truncated bytes, oversize and non-JSON bodies, removed,
 * duplicated and garbage headers, flipped, truncated, non-canonical or wrong-key signatures, a valid
 * signature of another body, shifted timestamps, swapped ids) must be rejected, and the receiver must
 * still accept a genuine delivery afterwards.
 *
 * Kick does not sign `Kick-Event-Type`, `-Version` or `-Subscription-Id` ([reference §5.3](../../../docs/kick-wire-reference.md#53-signature-algorithm)), so a change to
 * those alone leaves the signed delivery intact; the fuzz sends such changes too and holds them to the
 * same property (accepted only with the signed parts intact), which is all the receiver can know.
 */
import { createHash } from 'node:crypto';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock, toRfc3339Seconds } from '../../../electron/core/clock';
import { createDeliveryDedup } from '../../../electron/webhooks/dedup';
import { createPublicKeyCache } from '../../../electron/webhooks/public-key-cache';
import { createWebhookReceiver, type WebhookReceiver } from '../../../electron/webhooks/receiver';
import type { KickEvent } from '../../../electron/webhooks/types';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { MemoryJournal } from '../../helpers/memory-journal';
import {
  buildDelivery,
  createTestKey,
  samplePayloads,
  signDelivery,
  type TestDelivery,
} from '../../helpers/webhook-signing';

const SEED = 0x6b69636b; // "kick"
const TOTAL = 10_240;
const CONCURRENCY = 16;
const MAX_BODY = 8 * 1024;
const T0 = Date.UTC(2025, 3, 1, 7, 56, 19);

const key = createTestKey();
const wrongKey = createTestKey();

/** mulberry32: small, fast, and the same sequence on every run for a seed. */
function createRng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]! };
}

type Rng = ReturnType<typeof createRng>;

/** One request as sent: header pairs (flat, so a name may repeat) and the body. */
interface Mutant {
  kind: string;
  headers: [string, string][];
  body: Buffer;
}

const SIGNED_HEADERS = ['Kick-Event-Message-Id', 'Kick-Event-Message-Timestamp', 'Kick-Event-Signature'];
const ALL_HEADERS = [
  ...SIGNED_HEADERS,
  'Kick-Event-Subscription-Id',
  'Kick-Event-Type',
  'Kick-Event-Version',
  'Content-Type',
];

const sha = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
const tripleKey = (id: string, ts: string, body: Buffer): string => `${id}\n${ts}\n${sha(body)}`;

/** Header values undici will send: printable ASCII, tab and Latin-1 (no CR, LF, NUL or DEL). */
function garbage(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const r = rng.int(10);
    out += String.fromCharCode(r === 0 ? 0x80 + rng.int(0x80) : r === 1 ? 0x09 : 0x20 + rng.int(0x5f));
  }
  return out;
}

function set(headers: [string, string][], name: string, value: string | undefined): [string, string][] {
  const rest = headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
  return value === undefined ? rest : [...rest, [name, value]];
}

function get(headers: [string, string][], name: string): string[] {
  return headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
}

describe('receiver fuzz', () => {
  let receiver: WebhookReceiver;
  let pool: Pool;
  let url: URL;
  const journal = new MemoryJournal();
  const events: KickEvent[] = [];
  const clock = new AdjustableClock({ now: () => T0 });
  /** tripleKey → the one valid signature, for everything the valid key signed inside the window. */
  const signed = new Map<string, string>();
  const base: TestDelivery[] = [];
  const extra = {
    wrongKey: [] as string[],
    otherBody: [] as { index: number; signature: string }[],
    outOfWindow: [] as TestDelivery[],
  };

  beforeAll(async () => {
    receiver = createWebhookReceiver({
      port: 0,
      clock,
      maxBodyBytes: MAX_BODY,
      publicKey: createPublicKeyCache({ clock, fetchPublicKey: () => Promise.resolve(key.publicKeyPem) }),
      journal,
      dedup: createDeliveryDedup(),
      onEvent: (event) => events.push(event),
      log: () => undefined,
    });
    url = new URL((await receiver.start()).url);
    pool = new Pool(url.origin, { connections: CONCURRENCY, pipelining: 1 });

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
    await pool?.close();
    await receiver?.stop();
  });

  /** Builds one mutant from a base delivery; may stack a second mutation. */
  function mutate(rng: Rng, depth = 0): Mutant {
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

  it('accepts no forgery in 10,000+ mutated deliveries and keeps serving', async () => {
    const rng = createRng(SEED);
    const mutants = Array.from({ length: TOTAL }, () => mutate(rng));
    const outcomes: { mutant: Mutant; status: number }[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < mutants.length) {
        const mutant = mutants[next++]!;
        const res = await pool.request({
          path: url.pathname,
          method: 'POST',
          headers: mutant.headers.flat(),
          body: mutant.body,
        });
        await res.body.dump();
        outcomes.push({ mutant, status: res.statusCode });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(outcomes).toHaveLength(TOTAL);

    // The property: a 200 only for exactly signed parts with exactly their signature.
    const forgeries: string[] = [];
    for (const { mutant, status } of outcomes) {
      // HTTP strips surrounding whitespace from header values, so " X " arrives as "X".
      const one = (name: string): string | null => {
        const values = get(mutant.headers, name);
        return values.length === 1 ? values[0]!.replace(/^[ \t]+|[ \t]+$/g, '') : null;
      };
      const id = one('Kick-Event-Message-Id');
      const ts = one('Kick-Event-Message-Timestamp');
      const signature = one('Kick-Event-Signature');
      const genuine = id !== null && ts !== null && signed.get(tripleKey(id, ts, mutant.body)) === signature;
      if (status === 200 && !genuine) {
        forgeries.push(mutant.kind);
      }
      if (mutant.kind === 'resigned-out-of-window') {
        expect(status).toBe(400);
      }
      if (mutant.kind === 'identical') {
        expect(status).toBe(200);
      }
      expect([200, 400, 405, 413, 415]).toContain(status);
    }
    expect(forgeries).toEqual([]);

    // The journal holds only genuine deliveries, byte for byte.
    for (const record of journal.records) {
      expect(signed.has(tripleKey(record.messageId, record.timestamp, Buffer.from(record.body, 'utf8')))).toBe(true);
    }
    const { accepted, duplicates, rejected, rejectedByCode } = receiver.counters;
    expect(accepted + duplicates + rejected).toBe(TOTAL);
    expect(accepted).toBe(journal.records.length);
    expect(events).toHaveLength(accepted);
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(accepted + duplicates);
    // Every rejection class was exercised.
    for (const code of [
      'WebhookSignature',
      'WebhookHeaders',
      'WebhookTooLarge',
      'WebhookStale',
      'WebhookContentType',
      'WebhookBody',
    ]) {
      expect(rejectedByCode[code], code).toBeGreaterThan(0);
    }
    expect(rejected).toBeGreaterThan(TOTAL * 0.8);

    // Still serving: a fresh genuine delivery is accepted and published.
    const fresh = buildDelivery({
      type: 'channel.followed',
      payload: samplePayloads(T0)['channel.followed'],
      privateKey: key.privateKey,
      atMs: T0,
    });
    const res = await pool.request({ path: url.pathname, method: 'POST', headers: fresh.headers, body: fresh.body });
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('OK');
    expect(events.at(-1)).toMatchObject({ kind: 'known', type: 'channel.followed', messageId: fresh.messageId });
  }, 120_000);
});

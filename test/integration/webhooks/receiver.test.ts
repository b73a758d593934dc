/**
 * The webhook receiver over real HTTP on 127.0.0.1: every rejection path with its status, code, log line
 * and counter; all ten event types signed with a test key; dedup, journal failure and key rotation; and
 * end to end with the Kick sandbox delivering to it.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock, systemClock, toRfc3339Seconds } from '../../../electron/core/clock';
import { createKick } from '../../../electron/kick/create-kick';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import { createDeliveryDedup } from '../../../electron/webhooks/dedup';
import { createPublicKeyCache } from '../../../electron/webhooks/public-key-cache';
import { createWebhookReceiver, type WebhookReceiverDeps } from '../../../electron/webhooks/receiver';
import type { EventJournal, JournalRecord, KickEvent } from '../../../electron/webhooks/types';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { MemoryJournal } from '../../helpers/memory-journal';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';
import {
  buildDelivery,
  createTestKey,
  postDelivery,
  postRaw,
  samplePayloads,
  signDelivery,
  type TestDelivery,
} from '../../helpers/webhook-signing';

const key = createTestKey();
const otherKey = createTestKey();
const T0 = Date.UTC(2025, 3, 1, 7, 56, 19);
const payloads = samplePayloads(T0);

interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

interface Harness {
  url: string;
  clock: AdjustableClock;
  journal: MemoryJournal;
  events: KickEvent[];
  accepted: JournalRecord[];
  logs: LogLine[];
  keyFetches: () => number;
  receiver: ReturnType<typeof createWebhookReceiver>;
  /** A signed follow delivery with a fresh id, stamped at the clock's now. */
  delivery(overrides?: Partial<Parameters<typeof buildDelivery>[0]>): TestDelivery;
}

const running: { stop(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

async function startReceiver(
  options: { pems?: (() => Promise<string>)[]; deps?: Partial<WebhookReceiverDeps> } = {},
): Promise<Harness> {
  const clock = new AdjustableClock({ now: () => T0 });
  const journal = new MemoryJournal();
  const events: KickEvent[] = [];
  const accepted: JournalRecord[] = [];
  const logs: LogLine[] = [];
  let fetches = 0;
  const pems = options.pems ?? [() => Promise.resolve(key.publicKeyPem)];
  const receiver = createWebhookReceiver({
    port: 0,
    clock,
    publicKey: createPublicKeyCache({
      clock,
      fetchPublicKey: () => pems[Math.min(fetches++, pems.length - 1)]!(),
    }),
    journal,
    dedup: createDeliveryDedup(),
    onEvent: (event) => events.push(event),
    onAccepted: (record) => accepted.push(record),
    log: (level, message, fields) => logs.push({ level, message, fields }),
    ...options.deps,
  });
  const { url } = await receiver.start();
  running.push(receiver);
  return {
    url,
    clock,
    journal,
    events,
    accepted,
    logs,
    keyFetches: () => fetches,
    receiver,
    delivery: (overrides = {}) =>
      buildDelivery({
        type: 'channel.followed',
        payload: { ...payloads['channel.followed'], n: Math.random() },
        privateKey: key.privateKey,
        atMs: clock.now(),
        ...overrides,
      }),
  };
}

/** Posts and expects a rejection with this status and code; returns the parsed answer. */
async function expectRejected(
  h: Harness,
  send: Promise<{ status: number; text: string; headers: Record<string, unknown> }>,
  status: number,
  code: string,
): Promise<{ error: string; message: string }> {
  const before = h.receiver.counters.rejectedByCode[code] ?? 0;
  const res = await send;
  expect(res.status, res.text).toBe(status);
  const answer = JSON.parse(res.text) as { error: string; message: string };
  expect(answer.error).toBe(code);
  expect(h.receiver.counters.rejectedByCode[code]).toBe(before + 1);
  const line = h.logs.at(-1)!;
  expect(line.message).toBe('webhook rejected');
  expect(line.fields).toMatchObject({ code, status, reason: answer.message });
  return answer;
}

function withHeader(delivery: TestDelivery, name: string, value: string | undefined): Record<string, string> {
  const headers = { ...delivery.headers };
  if (value === undefined) {
    delete headers[name];
  } else {
    headers[name] = value;
  }
  return headers;
}

describe('receiver: accepting', () => {
  it('journals a signed delivery before answering 200, then publishes the typed event', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    const res = await postDelivery(h.url, d);
    expect(res).toMatchObject({ status: 200, text: 'OK' });
    expect(h.journal.records).toHaveLength(1);
    expect(h.journal.records[0]).toEqual({
      messageId: d.messageId,
      subscriptionId: '01TESTSUBSCRIPT10N000000000',
      type: 'channel.followed',
      version: '1',
      timestamp: d.timestamp,
      receivedAtMs: T0,
      bodyHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      body: d.body.toString('utf8'),
    });
    expect(h.accepted).toEqual(h.journal.records);
    expect(h.events).toHaveLength(1);
    expect(h.events[0]).toMatchObject({ kind: 'known', type: 'channel.followed', messageId: d.messageId });
    expect(h.receiver.counters).toEqual({ accepted: 1, duplicates: 0, rejected: 0, rejectedByCode: {} });
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/kick\/webhook$/);
  });

  it('parses all ten event types built by the sandbox builders', async () => {
    const h = await startReceiver();
    for (const type of KICK_EVENT_TYPES) {
      const res = await postDelivery(h.url, h.delivery({ type, payload: payloads[type] }));
      expect(res.status, type).toBe(200);
    }
    expect(h.events.map((e) => [e.kind, e.type])).toEqual(KICK_EVENT_TYPES.map((t) => ['known', t]));
    for (const event of h.events) {
      if (event.kind !== 'known') {
        throw new Error(event.reason);
      }
      expect(event.payload).toEqual(payloads[event.type]);
    }
    const chat = h.events.find((e) => e.type === 'chat.message.sent');
    if (chat?.kind !== 'known' || chat.type !== 'chat.message.sent') {
      throw new Error('no chat event');
    }
    expect(chat.payload.content).toBe('nice [emote:37226:KEKW] one');
  });

  it('accepts charset parameters on the content type and a query string on the path', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    const res = await postRaw(
      `${h.url}?source=kick`,
      withHeader(d, 'Content-Type', 'Application/JSON; charset=utf-8'),
      d.body,
    );
    expect(res.status).toBe(200);
  });

  it('publishes an unknown type or version as unknown, still accepted (signed by Kick)', async () => {
    const h = await startReceiver();
    expect((await postDelivery(h.url, h.delivery({ type: 'channel.raided', payload: { x: 1 } }))).status).toBe(200);
    expect((await postDelivery(h.url, h.delivery({ version: '2' }))).status).toBe(200);
    const bad = { ...payloads['channel.followed'], follower: { is_anonymous: 'no' } };
    expect((await postDelivery(h.url, h.delivery({ payload: bad }))).status).toBe(200);
    expect(h.events.map((e) => e.kind)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(h.events.map((e) => (e.kind === 'unknown' ? e.reason : ''))).toEqual([
      'unknown event type "channel.raided"',
      'unknown version "2" of channel.followed',
      expect.stringMatching(/^payload\.follower\.is_anonymous: /),
    ]);
    expect(h.receiver.counters.accepted).toBe(3);
  });

  it('answers the tunnel self-check with its nonce', async () => {
    const h = await startReceiver();
    const res = await postRaw(`${h.url}?check=3f9a1c0b5e`, {}, undefined, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.text)).toEqual({ service: 'greenroom-webhook-receiver', check: '3f9a1c0b5e' });
    expect(h.receiver.counters.rejected).toBe(0);
  });
});

describe('receiver: rejections', () => {
  it('405 with Allow: POST for other methods on the path; a GET without a valid check too', async () => {
    const h = await startReceiver();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await postRaw(h.url, {}, undefined, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
    await expectRejected(
      h,
      postRaw(`${h.url}?check=${'x'.repeat(200)}`, {}, undefined, { method: 'GET' }),
      405,
      'WebhookMethod',
    );
    expect(h.receiver.counters.rejectedByCode.WebhookMethod).toBe(5);
  });

  it('404 for any other path', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    for (const path of ['/', '/kick/webhook/', '/kick/webhooks', '/KICK/WEBHOOK']) {
      const res = await postRaw(new URL(path, h.url).href, d.headers, d.body);
      expect(res.status, path).toBe(404);
    }
    expect(h.receiver.counters.rejectedByCode.NotFound).toBe(4);
    expect(h.journal.records).toHaveLength(0);
  });

  it('415 unless the content type is application/json', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
      await expectRejected(h, postRaw(h.url, withHeader(d, 'Content-Type', type), d.body), 415, 'WebhookContentType');
    }
    await expectRejected(
      h,
      postRaw(h.url, withHeader(d, 'Content-Type', undefined), d.body),
      415,
      'WebhookContentType',
    );
    expect(h.journal.records).toHaveLength(0);
  });

  it('413 past the size cap, declared or streamed, and keeps serving', async () => {
    const h = await startReceiver({ deps: { maxBodyBytes: 1024 } });
    const big = h.delivery({ payload: { pad: 'x'.repeat(2000) } });
    const res = await expectRejected(h, postDelivery(h.url, big), 413, 'WebhookTooLarge');
    expect(res.message).toBe('body larger than 1024 bytes');
    // Streamed (chunked, no length announced): the cap is enforced while reading.
    const chunks = Readable.from(Array.from({ length: 64 }, () => Buffer.alloc(512, 0x20)));
    const chunked = await request(h.url, { method: 'POST', headers: big.headers, body: chunks });
    expect(chunked.statusCode).toBe(413);
    expect(chunked.headers.connection).toBe('close');
    await chunked.body.dump();
    expect(h.receiver.counters.rejectedByCode.WebhookTooLarge).toBe(2);
    const exact = h.delivery({ payload: 'x'.repeat(1024) });
    expect((await postDelivery(h.url, exact)).status).toBe(200); // exactly the cap is fine
    expect((await postDelivery(h.url, h.delivery())).status).toBe(200);
  });

  it.each([
    ['Kick-Event-Message-Id'],
    ['Kick-Event-Subscription-Id'],
    ['Kick-Event-Signature'],
    ['Kick-Event-Message-Timestamp'],
    ['Kick-Event-Type'],
    ['Kick-Event-Version'],
  ])('400 naming %s when it is missing', async (name) => {
    const h = await startReceiver();
    const d = h.delivery();
    const answer = await expectRejected(
      h,
      postRaw(h.url, withHeader(d, name, undefined), d.body),
      400,
      'WebhookHeaders',
    );
    expect(answer.message).toBe(`${name}: missing`);
    expect(h.journal.records).toHaveLength(0);
  });

  it('400 for a header sent twice, an unparseable timestamp, or an empty body', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    const pairs = Object.entries(d.headers).flat();
    pairs.push('Kick-Event-Signature', d.headers['Kick-Event-Signature']!);
    let answer = await expectRejected(h, postRaw(h.url, pairs, d.body), 400, 'WebhookHeaders');
    expect(answer.message).toBe('Kick-Event-Signature: sent 2 times');
    answer = await expectRejected(
      h,
      postRaw(h.url, withHeader(d, 'Kick-Event-Message-Timestamp', '2025-04-01T07:56:19'), d.body),
      400,
      'WebhookHeaders',
    );
    expect(answer.message).toBe('Kick-Event-Message-Timestamp: not an RFC 3339 date-time');
    const empty = h.delivery({ payload: '' });
    answer = await expectRejected(h, postDelivery(h.url, empty), 400, 'WebhookBody');
    expect(answer.message).toBe('body is empty or not UTF-8');
    const notUtf8 = h.delivery({ payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) });
    answer = await expectRejected(h, postDelivery(h.url, notUtf8), 400, 'WebhookBody');
    expect(answer.message).toBe('body is empty or not UTF-8');
  });

  it('400 WebhookSignature for garbage, a wrong key, a changed body byte, id or timestamp', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    const send = (headers: Record<string, string>, body: Buffer) =>
      expectRejected(h, postRaw(h.url, headers, body), 400, 'WebhookSignature');
    await send(withHeader(d, 'Kick-Event-Signature', 'bm90IGEgc2lnbmF0dXJl'), d.body);
    await send(
      withHeader(d, 'Kick-Event-Signature', signDelivery(d.messageId, d.timestamp, d.body, otherKey.privateKey)),
      d.body,
    );
    const flipped = Buffer.from(d.body);
    flipped[10] = flipped[10]! ^ 0x01;
    await send(d.headers, flipped);
    await send(d.headers, Buffer.concat([d.body, Buffer.from('\n')]));
    await send(withHeader(d, 'Kick-Event-Message-Id', `${d.messageId}X`), d.body);
    await send(withHeader(d, 'Kick-Event-Message-Timestamp', toRfc3339Seconds(T0 + 1000)), d.body);
    await send(withHeader(d, 'Kick-Event-Signature', d.headers['Kick-Event-Signature']!.replace(/=+$/, '')), d.body);
    expect(h.receiver.counters).toMatchObject({ accepted: 0, rejected: 7, rejectedByCode: { WebhookSignature: 7 } });
    expect(h.journal.appendCalls).toBe(0);
    expect(h.events).toHaveLength(0);
    // The genuine delivery is still accepted afterwards.
    expect((await postDelivery(h.url, d)).status).toBe(200);
  });

  it('never logs the body or the signature', async () => {
    const h = await startReceiver();
    const d = h.delivery({ payload: { secret_marker: 'do-not-log-me' } });
    await postRaw(
      h.url,
      withHeader(d, 'Kick-Event-Signature', signDelivery(d.messageId, d.timestamp, d.body, otherKey.privateKey)),
      d.body,
    );
    await postDelivery(h.url, d);
    await postDelivery(h.url, d);
    const logged = JSON.stringify(h.logs);
    expect(h.logs.length).toBeGreaterThan(0);
    expect(logged).not.toContain('do-not-log-me');
    expect(logged).not.toContain(d.headers['Kick-Event-Signature']!.slice(0, 40));
  });

  it('400 WebhookStale outside the replay window (48 h by default); inside it accepted', async () => {
    const h = await startReceiver();
    const window = 48 * 3_600_000;
    const at = (ms: number) => h.delivery({ atMs: ms });
    await expectRejected(h, postDelivery(h.url, at(T0 - window - 1000)), 400, 'WebhookStale');
    await expectRejected(h, postDelivery(h.url, at(T0 + 301_000)), 400, 'WebhookStale');
    expect((await postDelivery(h.url, at(T0 - window))).status).toBe(200);
    expect((await postDelivery(h.url, at(T0 + 300_000))).status).toBe(200);
    // A delivery that was fresh when signed goes stale as time passes.
    const d = at(T0);
    h.clock.advance(window + 1000);
    const answer = await expectRejected(h, postDelivery(h.url, d), 400, 'WebhookStale');
    expect(answer.message).toBe('timestamp older than the replay window');
  });

  it('accepts a genuine late delivery by default: sixteen minutes, or a retry still carrying a day-old stamp', async () => {
    const h = await startReceiver();
    expect((await postDelivery(h.url, h.delivery({ atMs: T0 - 16 * 60_000 }))).status).toBe(200);
    expect((await postDelivery(h.url, h.delivery({ atMs: T0 - 25 * 3_600_000 }))).status).toBe(200);
    expect(h.receiver.counters).toMatchObject({ accepted: 2, rejected: 0 });
  });

  it('replay window 0 accepts an old capture (and a future stamp)', async () => {
    const h = await startReceiver({ deps: { replayWindowSeconds: 0 } });
    expect((await postDelivery(h.url, h.delivery({ atMs: T0 - 30 * 86_400_000 }))).status).toBe(200);
    expect((await postDelivery(h.url, h.delivery({ atMs: T0 + 86_400_000 }))).status).toBe(200);
    // The signature is still required.
    const d = h.delivery({ atMs: T0 - 86_400_000 });
    await expectRejected(
      h,
      postRaw(h.url, withHeader(d, 'Kick-Event-Message-Timestamp', toRfc3339Seconds(T0)), d.body),
      400,
      'WebhookSignature',
    );
  });
});

describe('receiver: dedup, journal, key', () => {
  it('answers 200 to a repeated id and to the same payload under a new id seconds later, without journaling them', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    expect((await postDelivery(h.url, d)).status).toBe(200);
    expect((await postDelivery(h.url, d)).status).toBe(200);
    // A duplicate subscription's copy: the same payload under a fresh id, seconds later.
    h.clock.advance(5_000);
    const resend = buildDelivery({
      type: 'channel.followed',
      payload: d.body,
      privateKey: key.privateKey,
      atMs: h.clock.now(),
    });
    expect((await postDelivery(h.url, resend)).status).toBe(200);
    // Kick's retry: same id, same body, re-signed with a later timestamp.
    h.clock.advance(60_000);
    const retry = buildDelivery({
      type: 'channel.followed',
      payload: d.body,
      privateKey: key.privateKey,
      messageId: d.messageId,
      atMs: h.clock.now(),
    });
    expect((await postDelivery(h.url, retry)).status).toBe(200);
    expect(h.journal.records).toHaveLength(1);
    expect(h.events).toHaveLength(1);
    expect(h.receiver.counters).toMatchObject({ accepted: 1, duplicates: 3, rejected: 0 });
  });

  it('500 when the journal append fails, nothing published, and the retry is accepted', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    h.journal.failNext();
    const answer = await expectRejected(h, postDelivery(h.url, d), 500, 'WebhookJournal');
    expect(answer.message).toBe('journal append failed; retry later');
    expect(h.logs.at(-1)!.level).toBe('error');
    expect(h.events).toHaveLength(0);
    expect(h.accepted).toHaveLength(0);
    expect((await postDelivery(h.url, d)).status).toBe(200);
    expect(h.journal.records.map((r) => r.messageId)).toEqual([d.messageId]);
    expect(h.events).toHaveLength(1);
    expect(h.receiver.counters).toMatchObject({ accepted: 1, duplicates: 0 });
  });

  it('503 when the public key cannot be fetched, then accepts once it can', async () => {
    const h = await startReceiver({
      pems: [() => Promise.reject(new Error('api.kick.com unreachable')), () => Promise.resolve(key.publicKeyPem)],
    });
    const d = h.delivery();
    const answer = await expectRejected(h, postDelivery(h.url, d), 503, 'WebhookKeyUnavailable');
    expect(answer.message).toBe('public key unavailable; retry later');
    expect(h.logs.some((l) => l.message === 'webhook public key unavailable')).toBe(true);
    h.clock.advance(5_000);
    expect((await postDelivery(h.url, d)).status).toBe(200);
    expect(h.keyFetches()).toBe(2);
  });

  it('follows a key rotation with one refetch, at most once a minute', async () => {
    const h = await startReceiver({
      pems: [() => Promise.resolve(key.publicKeyPem), () => Promise.resolve(otherKey.publicKeyPem)],
    });
    expect((await postDelivery(h.url, h.delivery())).status).toBe(200);
    const rotated = () => h.delivery({ privateKey: otherKey.privateKey });
    // Within a minute of the first fetch no refetch is allowed: rejected.
    await expectRejected(h, postDelivery(h.url, rotated()), 400, 'WebhookSignature');
    expect(h.keyFetches()).toBe(1);
    h.clock.advance(60_000);
    expect((await postDelivery(h.url, rotated())).status).toBe(200);
    expect(h.keyFetches()).toBe(2);
    // The old key no longer verifies, and forged deliveries cannot force more fetches.
    await expectRejected(h, postDelivery(h.url, h.delivery()), 400, 'WebhookSignature');
    await expectRejected(h, postDelivery(h.url, h.delivery()), 400, 'WebhookSignature');
    expect(h.keyFetches()).toBe(2);
  });

  it('a throwing onEvent or onAccepted does not change the answer or stop the server', async () => {
    const h = await startReceiver({
      deps: {
        onEvent: () => {
          throw new Error('listener bug');
        },
        onAccepted: () => {
          throw new Error('lag tracker bug');
        },
      },
    });
    expect((await postDelivery(h.url, h.delivery())).status).toBe(200);
    expect((await postDelivery(h.url, h.delivery())).status).toBe(200);
    expect(h.receiver.counters.accepted).toBe(2);
    expect(h.logs.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      'webhook onAccepted failed',
      'webhook listener failed',
      'webhook onAccepted failed',
      'webhook listener failed',
    ]);
  });

  it('stop() lets a delivery in flight finish its journal append and get its 200', async () => {
    const journal = new MemoryJournal();
    let started: () => void = () => undefined;
    const appendStarted = new Promise<void>((resolve) => (started = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow: EventJournal = {
      append: async (record) => {
        started();
        await released;
        await journal.append(record);
      },
      readAll: () => journal.readAll(),
      close: () => journal.close(),
    };
    const h = await startReceiver({ deps: { journal: slow } });
    const pending = postDelivery(h.url, h.delivery());
    await appendStarted;
    let stopDone = false;
    const stopped = h.receiver.stop().then(() => (stopDone = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopDone).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    await stopped;
    expect(journal.records).toHaveLength(1);
  });

  it('stop() does not wait for a sender stuck mid-body: it closes that connection', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    const target = new URL(h.url);
    const socket = connect(Number(target.port), target.hostname);
    socket.on('error', () => undefined); // the reset on close is expected
    await once(socket, 'connect');
    const head = Object.entries(d.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    // "Expect: 100-continue" makes Node answer "100 Continue" once the handler has the request.
    socket.write(
      `POST ${target.pathname} HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n${head}Content-Length: ${d.body.length}\r\n\r\n`,
    );
    const [interim] = (await once(socket, 'data')) as [Buffer];
    expect(interim.toString('latin1')).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write(d.body.subarray(0, 10));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await h.receiver.stop();
    await closed;
    expect(h.journal.appendCalls).toBe(0);
  });
});

describe('receiver: end to end with the Kick sandbox', () => {
  let sandbox: Sandbox | null = null;

  afterEach(async () => {
    await sandbox?.close();
    sandbox = null;
  });

  it('the sandbox delivers all ten event types, signed, and the receiver publishes them typed', async () => {
    sandbox = await startSandbox({ delivery: { tickMs: 0 } });
    const kick = createKick(
      {
        apiUrl: sandbox.urls.api,
        authUrl: sandbox.urls.auth,
        clientId: sandbox.ctx.app.clientId,
        clientSecret: sandbox.ctx.app.clientSecret,
        redirectUri: 'http://127.0.0.1:3000/callback',
        scopes: [],
      },
      { clock: systemClock, store: new MemorySecretStore(), openExternal: () => Promise.resolve() },
    );
    const journal = new MemoryJournal();
    const events: KickEvent[] = [];
    const receiver = createWebhookReceiver({
      port: 0,
      clock: systemClock,
      publicKey: createPublicKeyCache({ clock: systemClock, fetchPublicKey: () => kick.client.fetchPublicKey() }),
      journal,
      dedup: createDeliveryDedup(),
      onEvent: (event) => events.push(event),
      log: () => undefined,
    });
    const { url } = await receiver.start();
    running.push(receiver, { stop: () => kick.close() });
    sandbox.ctx.app.webhookUrl = url;

    const res = await call(sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
      token: mintUserToken(sandbox),
      body: { method: 'webhook', events: KICK_EVENT_TYPES.map((name) => ({ name, version: 1 })) },
    });
    expect(res.status, res.text).toBe(200);

    for (const type of KICK_EVENT_TYPES) {
      triggerEvent(sandbox.ctx, type);
    }
    await sandbox.delivery.flush();

    const attempts = sandbox.delivery.attempts;
    expect(attempts.length).toBeGreaterThanOrEqual(KICK_EVENT_TYPES.length);
    expect(attempts.every((a) => a.status === 200)).toBe(true);
    expect(events.every((e) => e.kind === 'known')).toBe(true);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(KICK_EVENT_TYPES));
    expect(journal.records).toHaveLength(events.length);
    expect(receiver.counters).toMatchObject({ accepted: events.length, duplicates: 0, rejected: 0 });

    // Kick's at-least-once misbehaviour: two same-id repeats and a resend under a new id.
    const before = events.length;
    const attemptsBefore = attempts.length;
    triggerEvent(sandbox.ctx, 'chat.message.sent', { duplicates: 2, resendWithNewId: true });
    await sandbox.delivery.flush();
    expect(events.length).toBe(before + 1);
    expect(receiver.counters.duplicates).toBe(3);
    expect(sandbox.delivery.attempts.slice(attemptsBefore).map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });
});

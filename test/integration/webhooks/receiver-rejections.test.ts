/**
 * The webhook receiver over real HTTP on 127.0.0.1: every rejection path with its status, code, log line
 * and counter; all ten event types signed with a test key; dedup, journal failure and key rotation; and
 * end to end with the Kick sandbox delivering to it.
 *
 * This file: “receiver: rejections”.
 */
import { Readable } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { toRfc3339Seconds } from '../../../electron/core/clock';
import { postDelivery, postRaw, signDelivery } from '../../helpers/webhook-signing';
import { T0, expectRejected, otherKey, startReceiver, useSetup, withHeader } from './receiver-fixtures';

useSetup();

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

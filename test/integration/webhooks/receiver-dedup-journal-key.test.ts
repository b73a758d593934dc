/**
 * The webhook receiver over real HTTP on 127.0.0.1: every rejection path with its status, code, log line
 * and counter; all ten event types signed with a test key; dedup, journal failure and key rotation; and
 * end to end with the Kick sandbox delivering to it.
 *
 * This file: “receiver: dedup, journal, key”; “receiver: end to end with the Kick sandbox”.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/core/clock';
import { createKick } from '../../../electron/kick/create-kick';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import { createDeliveryDedup } from '../../../electron/webhooks/dedup/dedup';
import { createPublicKeyCache } from '../../../electron/webhooks/receive/public-key-cache';
import { createWebhookReceiver } from '../../../electron/webhooks/receive/receiver';
import type { EventJournal, KickEvent } from '../../../electron/webhooks/events/types';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { MemoryJournal } from '../../helpers/memory-journal';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';
import { buildDelivery, postDelivery } from '../../helpers/webhook-signing';
import { listedGate } from './own-channel-fixtures';
import { expectRejected, key, otherKey, running, startReceiver, useSetup } from './receiver-fixtures';

useSetup();

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

  it('500 when the journal append fails; the retry is kept without being shown a second time', async () => {
    const h = await startReceiver();
    const d = h.delivery();
    h.journal.failNext();
    const answer = await expectRejected(h, postDelivery(h.url, d), 500, 'WebhookJournal');
    expect(answer.message).toBe('journal append failed; retry later');
    expect(h.logs.at(-1)!.level).toBe('error');
    // Shown while the write was on its way (docs/decisions.md), and counted only once kept.
    expect(h.events).toHaveLength(1);
    expect(h.receiver.counters.accepted).toBe(0);
    expect((await postDelivery(h.url, d)).status).toBe(200);
    expect(h.journal.records.map((r) => r.messageId)).toEqual([d.messageId]);
    expect(h.events).toHaveLength(1);
    expect(h.receiver.counters).toMatchObject({ accepted: 1, duplicates: 0 });
    // A different delivery after the failure is shown as usual.
    expect((await postDelivery(h.url, h.delivery())).status).toBe(200);
    expect(h.events).toHaveLength(2);
  });

  it('shows a delivery while its journal write is on its way, and answers 200 only once it is kept', async () => {
    let finishWrite: () => void = () => undefined;
    const writing = new Promise<void>((resolve) => (finishWrite = resolve));
    const h = await startReceiver();
    // The receiver mounted on a server of ours, so the test sees its response object itself.
    let response: ServerResponse | null = null;
    const server = createServer((req, res) => {
      response = res;
      h.receiver.handle(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    running.push({ stop: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const append = h.journal.append.bind(h.journal);
    let answeredBeforeKept: boolean | null = null;
    h.journal.append = async (record) => {
      await writing;
      answeredBeforeKept = response?.headersSent ?? null;
      return append(record);
    };
    const { port } = server.address() as AddressInfo;
    const answer = postDelivery(`http://127.0.0.1:${port}/kick/webhook`, h.delivery());
    await vi.waitFor(() => expect(h.events).toHaveLength(1));
    expect(h.journal.records).toHaveLength(0);
    finishWrite();
    expect((await answer).status).toBe(200);
    expect(answeredBeforeKept).toBe(false);
    expect(h.journal.records).toHaveLength(1);
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
    const res = await call(sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
      token: mintUserToken(sandbox),
      body: { method: 'webhook', events: KICK_EVENT_TYPES.map((name) => ({ name, version: 1 })) },
    });
    expect(res.status, res.text).toBe(200);
    const subscribed = (JSON.parse(res.text) as { data: { subscription_id: string }[] }).data;

    const journal = new MemoryJournal();
    const events: KickEvent[] = [];
    const receiver = createWebhookReceiver({
      port: 0,
      clock: systemClock,
      publicKey: createPublicKeyCache({ clock: systemClock, fetchPublicKey: () => kick.client.fetchPublicKey() }),
      journal,
      dedup: createDeliveryDedup(),
      gate: listedGate(subscribed.map((item) => item.subscription_id)),
      onEvent: (event) => events.push(event),
      log: () => undefined,
    });
    const { url } = await receiver.start();
    running.push(receiver, { stop: () => kick.close() });
    sandbox.ctx.app.webhookUrl = url;

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

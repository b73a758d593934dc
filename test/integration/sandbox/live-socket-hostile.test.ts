/**
 * Hostile input at the sandbox's live socket, through the real endpoint over loopback: each bad frame is
 * answered or closes that one socket, is counted, and a good client still works afterwards. Without the
 * guard a test names, it fails (the socket stays open and the wait times out, or the frame is not refused).
 */
import { describe, expect, it } from 'vitest';
import { call } from '../../helpers/sandbox';
import {
  CHAT_EVENT,
  CHATROOM,
  fx,
  PUSHER_PATH,
  type RawClient,
  rawClient,
  rawPusher,
  send,
  triggerChat,
  useLiveSandbox,
} from './live-socket-fixtures';

/** A raw Centrifugo socket past `connect`. */
async function rawCentrifugo(): Promise<RawClient> {
  const token = await call(fx.sandbox.urls.web, 'POST', '/api/v1/realtime/auth/connection', { body: {} });
  const client = await rawClient('/connection/websocket');
  send(client, { id: 1, connect: { token: token.json.data.token, name: 'js' } });
  expect(JSON.parse(await client.next())).toMatchObject({ id: 1, connect: { ping: 25, pong: true } });
  return client;
}

/** A fresh Pusher client still subscribes and gets a chat line: the server survived. */
async function expectStillServing(): Promise<void> {
  const good = await rawPusher();
  send(good, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
  await good.nextEvent('pusher_internal:subscription_succeeded');
  await triggerChat('still here');
  expect(JSON.parse((await good.nextEvent(CHAT_EVENT)).data as string).content).toBe('still here');
}

describe('sandbox live socket, hostile frames', () => {
  useLiveSandbox();

  it('closes a socket that sends a frame over 16 KiB (1009), on both providers', async () => {
    const pusher = await rawPusher();
    send(pusher, { event: 'pusher:subscribe', data: { channel: CHATROOM, pad: 'x'.repeat(17 * 1024) } });
    expect((await pusher.closed).code).toBe(1009);
    const centrifugo = await rawClient('/connection/websocket');
    send(centrifugo, 'x'.repeat(17 * 1024));
    expect((await centrifugo.closed).code).toBe(1009);
    await expectStillServing();
  });

  it('answers garbage on Pusher with pusher:error, counts it and keeps the socket', async () => {
    const raw = await rawPusher();
    const garbage = ['{not json', '[]', '"a string"', 'null', '{"event":5}', '{"data":{}}'];
    for (const frame of garbage) {
      send(raw, frame);
      expect((await raw.nextEvent('pusher:error')).data).toEqual({
        code: null,
        message: 'Malformed frame: expected a JSON object with an event name',
      });
    }
    raw.ws.send(Buffer.from([0xff, 0x00, 0x7b]), { binary: true });
    await raw.nextEvent('pusher:error');
    expect(fx.sandbox.live.hub.counters.malformedFrames).toBe(garbage.length + 1);
    send(raw, { event: 'pusher:ping', data: {} });
    expect(await raw.nextEvent('pusher:pong')).toEqual({ event: 'pusher:pong', data: {} });
  });

  it('answers unknown event names and client events with pusher:error and keeps the socket', async () => {
    const raw = await rawPusher();
    for (const event of ['pusher:take_over', 'client-typing', 'App\\Events\\ChatMessageEvent', 'x'.repeat(5000)]) {
      send(raw, { event, data: {}, channel: CHATROOM });
      expect((await raw.nextEvent('pusher:error')).data.message).toMatch(/^(Client event rejected|Unsupported event)/);
    }
    expect(fx.sandbox.live.hub.counters.unknownEvents).toBe(4);
    send(raw, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
    await raw.nextEvent('pusher_internal:subscription_succeeded');
  });

  it('refuses bad channel names and private channels, one by one', async () => {
    const raw = await rawPusher();
    for (const channel of ['', 'has space', 'x'.repeat(165), 'private-chatroom_1', 'presence-x', 42, null]) {
      send(raw, { event: 'pusher:subscribe', data: { channel } });
      expect((await raw.nextEvent('pusher:subscription_error')).data.status).toBe(401);
    }
    send(raw, { event: 'pusher:subscribe', data: JSON.stringify({ channel: CHATROOM }) });
    await raw.nextEvent('pusher_internal:subscription_succeeded');
  });

  it('refuses a subscribe flood past 100 channels, then closes a frame flood with 4301', async () => {
    const raw = await rawPusher();
    for (let i = 0; i < 101; i++) {
      send(raw, { event: 'pusher:subscribe', data: { channel: `chatrooms.${i}.v2` } });
    }
    const refused = await raw.nextEvent('pusher:subscription_error');
    expect(refused).toMatchObject({ channel: 'chatrooms.100.v2', data: { type: 'LimitReached', status: 429 } });
    expect(raw.frames.filter((f) => f.includes('subscription_succeeded'))).toHaveLength(100);
    for (let i = 0; i < 100; i++) {
      send(raw, { event: 'pusher:ping', data: {} });
    }
    expect(await raw.closed).toEqual({ code: 4301, reason: 'Too many messages' });
    await expectStillServing();
  });

  it('closes Centrifugo garbage with 3501 and answers an unknown method with error 104', async () => {
    const unknown = await rawCentrifugo();
    send(unknown, { id: 2, frobnicate: {} });
    expect(JSON.parse(await unknown.next())).toEqual({ id: 2, error: { code: 104, message: 'method not found' } });
    send(unknown, { id: 3, publish: { channel: CHATROOM, data: {} } });
    expect(JSON.parse(await unknown.next())).toMatchObject({ id: 3, error: { code: 103 } });
    for (const frame of ['{not json', '{"id":"one","subscribe":{"channel":"a"}}', '[1]']) {
      const raw = await rawCentrifugo();
      send(raw, frame);
      expect((await raw.closed).code).toBe(3501);
    }
    const early = await rawClient('/connection/websocket');
    send(early, { id: 1, subscribe: { channel: CHATROOM } });
    expect((await early.closed).code).toBe(3501);
    const forged = await rawClient('/connection/websocket');
    send(forged, { id: 1, connect: { token: 'e30.4102444800000.forged' } });
    expect((await forged.closed).code).toBe(3500);
    expect(fx.sandbox.live.hub.counters.malformedFrames).toBe(3);
  });

  it('refuses a Centrifugo subscribe flood past 100 channels with error 106', async () => {
    const raw = await rawCentrifugo();
    const lines = Array.from({ length: 101 }, (_, i) =>
      JSON.stringify({ id: i + 2, subscribe: { channel: `c.${i}` } }),
    );
    send(raw, lines.join('\n'));
    const replies: Record<string, any>[] = [];
    while (replies.length < 101) {
      replies.push(JSON.parse(await raw.next()) as Record<string, any>);
    }
    expect(replies.filter((r) => r.subscribe)).toHaveLength(100);
    expect(replies[100]).toEqual({ id: 102, error: { code: 106, message: 'limit exceeded' } });
  });

  it('refuses an upgrade with a foreign Host or Origin, before any socket exists', async () => {
    await expect(rawClient(PUSHER_PATH, { Host: 'evil.example:80' })).rejects.toThrow(/HTTP 403/);
    await expect(rawClient(PUSHER_PATH, { Origin: 'https://evil.example' })).rejects.toThrow(/HTTP 403/);
    await expect(rawClient('/connection/websocket', { Origin: 'null' })).rejects.toThrow(/HTTP 403/);
    expect(fx.sandbox.live.hub.counters).toMatchObject({ connections: 0, refusedConnections: 3 });
    const local = await rawClient(PUSHER_PATH, { Origin: 'http://localhost:5173' });
    await local.nextEvent('pusher:connection_established');
  });

  it('refuses a wrong key, a missing or wrong protocol with Pusher codes', async () => {
    const cases: [string, number][] = [
      ['/app/eb1d5f283081a78b932c?protocol=7', 4001],
      [PUSHER_PATH.replace('protocol=7&', ''), 4008],
      [PUSHER_PATH.replace('protocol=7', 'protocol=5'), 4007],
    ];
    for (const [path, code] of cases) {
      const raw = await rawClient(path);
      expect((await raw.nextEvent('pusher:error')).data.code).toBe(code);
      expect((await raw.closed).code).toBe(code);
    }
  });

  it('refuses hostile discovery bodies with a 400 naming the field', async () => {
    const path = `/api/v1/realtime/channels/${50_100_001}/chat/connection`;
    const web = fx.sandbox.urls.web;
    expect((await call(web, 'POST', path, { rawBody: '{not json' })).status).toBe(400);
    const long = await call(web, 'POST', path, { body: { client: { id: 'x'.repeat(129) } } });
    expect(long.status).toBe(400);
    expect(long.json.data).toMatch(/^client\.id: /);
    const many = await call(web, 'POST', path, { body: { capabilities: { accepted_providers: Array(9).fill({}) } } });
    expect(many.status).toBe(400);
    expect((await call(web, 'POST', '/api/v1/realtime/channels/9'.padEnd(60, '9') + '/chat/connection')).status).toBe(
      400,
    );
  });
});

describe('sandbox live socket, bounds', () => {
  useLiveSandbox({
    liveSocketLimits: { maxConnections: 2, activityTimeoutSeconds: 0.3, pongTimeoutMs: 200, handshakeTimeoutMs: 300 },
  });

  it('closes sockets past the cap with 4004 (Pusher) and 1013 (Centrifugo)', async () => {
    await rawPusher();
    await rawPusher();
    const third = await rawClient(PUSHER_PATH);
    expect((await third.nextEvent('pusher:error')).data).toEqual({ code: 4004, message: 'Over connection quota' });
    expect((await third.closed).code).toBe(4004);
    expect((await (await rawClient('/connection/websocket')).closed).code).toBe(1013);
  });

  it('pings a silent Pusher client, then closes it with 4201', async () => {
    const raw = await rawPusher();
    await raw.nextEvent('pusher:ping');
    expect((await raw.closed).code).toBe(4201);
  });

  it('closes a Centrifugo socket that never sends connect as stale (3502)', async () => {
    const raw = await rawClient('/connection/websocket');
    expect((await raw.closed).code).toBe(3502);
  });
});

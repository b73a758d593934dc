/**
 * The real pusher-js and centrifuge clients, behind the live connection, against a scripted server over real
 * sockets: handshake, the five subscriptions, typed events with `data` as the wire sends it, and a reconnect
 * per close code. Waits are on what the server sees, never on time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { LiveEvent } from '../../../shared/kick/live-events';
import { systemClock } from '../../../electron/core/clock';
import { centrifugeTransport } from '../../../electron/live-socket/centrifuge-transport';
import { LiveConnection } from '../../../electron/live-socket/live-connection';
import type { LiveTarget } from '../../../electron/live-socket/live-transport';
import { pusherTransport } from '../../../electron/live-socket/pusher-transport';
import { ScriptedLiveServer } from './scripted-live-server';

const IDS = { channelId: 99, chatroomId: 4242 };
const CHANNELS = ['chatrooms.4242.v2', 'chatrooms.4242', 'chatroom_4242', 'channel.99', 'channel_99'];
const CHAT = {
  id: 'msg-1',
  chatroom_id: 4242,
  content: 'hello',
  sender: { id: 7, username: 'v' },
  brand_new: { x: 1 },
};

let server: ScriptedLiveServer;
let connection: LiveConnection | null = null;

beforeEach(async () => {
  server = new ScriptedLiveServer();
  await server.listen();
});

afterEach(async () => {
  connection?.stop();
  connection = null;
  await server.close();
});

function connect(target: (url: string) => LiveTarget) {
  const events: LiveEvent[] = [];
  const lines: string[] = [];
  connection = new LiveConnection({
    clock: systemClock,
    setTimer: (fn, ms) => {
      const handle = setTimeout(fn, ms);
      handle.unref();
      return { cancel: () => clearTimeout(handle) };
    },
    random: () => 0,
    // Short waits so a backoff step does not slow the suite; the steps themselves are unit-tested.
    backoff: { initialMs: 20, maxMs: 100, spread: 0 },
    transports: { pusher: pusherTransport, centrifugo: centrifugeTransport },
    ids: () => Promise.resolve({ ok: true, value: IDS }),
    discover: () => Promise.resolve(target(server.url)),
    log: (line) => lines.push(line),
  });
  connection.onEvent((event) => events.push(event));
  connection.start();
  const arrived = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (events.length >= count ? resolve() : undefined);
      check();
      connection!.onEvent(check);
    });
  return { events, lines, arrived };
}

const pusher = (url: string): LiveTarget => ({
  provider: 'pusher',
  socketUrl: url,
  key: 'testkey',
  cluster: 'us2',
  keySource: 'discovered',
});
const centrifugo = (url: string): LiveTarget => ({
  provider: 'centrifugo',
  url: `${url}/connection/websocket`,
  token: 'good-token',
  keySource: 'discovered',
});

describe('the Pusher transport on pusher-js', () => {
  it('connects with protocol 7, subscribes to the five channels and reads events', async () => {
    const { events, arrived } = connect(pusher);
    const client = await server.subscribedTo(CHANNELS);
    expect(client.path).toMatch(/^\/app\/testkey\?protocol=7&client=js&version=[\d.]+/);
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', CHAT);
    server.publish('chatrooms.4242.v2', 'App\\Events\\PinnedMessageDeletedEvent', '[]');
    server.publish('chatroom_4242', 'RewardRedeemedEvent', { reward_title: 'Hydrate', username: 'v' });
    await arrived(3);
    expect(events).toMatchObject([
      { type: 'chat.message', messageId: 'msg-1', content: 'hello', channel: 'chatrooms.4242.v2' },
      { type: 'pin.deleted' },
      { type: 'reward.redeemed', title: 'Hydrate', channel: 'chatroom_4242' },
    ]);
    expect(connection!.view()).toMatchObject({ state: 'connected', provider: 'pusher', channels: CHANNELS });
    expect(connection!.view().lastFrameAtMs).not.toBeNull();
  });

  const drops: [string, (ws: WebSocket) => void][] = [
    ['4200 (reconnect now)', (ws) => ws.close(4200, 'reconnect')],
    ['a cut connection', (ws) => ws.terminate()],
    ['4100 (over capacity)', (ws) => ws.close(4100, 'capacity')],
    ['a plain close', (ws) => ws.close(1000, 'bye')],
  ];
  for (const [what, drop] of drops) {
    it(`reconnects by itself after ${what} and subscribes again`, async () => {
      const { events, arrived } = connect(pusher);
      const first = await server.subscribedTo(CHANNELS);
      drop(first.ws);
      await server.until(() => server.clients.length === 2);
      await server.subscribedTo(CHANNELS);
      server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', { ...CHAT, id: 'after' });
      await arrived(1);
      expect(events[0]).toMatchObject({ messageId: 'after' });
      expect(connection!.view().counters.reconnects).toBe(1);
      // pusher-js's own retry never ran beside the connection's: exactly one new socket.
      expect(server.clients).toHaveLength(2);
    });
  }

  it('counts hostile frames over the real client, stays connected, and reads the next line', async () => {
    const { events, arrived, lines } = connect(pusher);
    await server.subscribedTo(CHANNELS);
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', '{"id":');
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', '[]');
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', { ...CHAT, sender: null });
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', { ...CHAT, content: { html: '<b>' } });
    server.publish('chatrooms.4242.v2', 'App\\Events\\NeverSeenBefore', { a: 1 });
    server.clients.at(-1)!.ws.send('this is not JSON at all');
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', { ...CHAT, id: 'fine' });
    await arrived(1);
    expect(events.map((e) => e.type === 'chat.message' && e.messageId)).toEqual(['fine']);
    expect(connection!.view()).toMatchObject({ state: 'connected', counters: { malformed: 4, unknown: 1 } });
    expect(lines.filter((l) => l.includes('could not be read'))).toHaveLength(1);
  });

  it('stops on 4001 and opens no second socket', async () => {
    connect(pusher);
    const first = await server.subscribedTo(CHANNELS);
    const stopped = new Promise<void>((resolve) =>
      connection!.onChange(() => connection!.view().state === 'refused' && resolve()),
    );
    first.ws.close(4001, 'App does not exist');
    await stopped;
    expect(connection!.view()).toMatchObject({ state: 'refused', lastClose: { code: 4001 } });
    expect(server.clients).toHaveLength(1);
  });
});

describe('the Centrifugo transport on centrifuge', () => {
  it('connects with the token, subscribes to the five channels and reads the envelope in the publication', async () => {
    const { events, arrived } = connect(centrifugo);
    const client = await server.subscribedTo(CHANNELS);
    expect(client.received[0]).toMatchObject({ connect: { token: 'good-token' } });
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', CHAT);
    server.publish('channel.99', 'App\\Events\\StreamerIsLive', { livestream: { id: 1, session_title: 'On' } });
    await arrived(2);
    expect(events).toMatchObject([
      { type: 'chat.message', messageId: 'msg-1', channel: 'chatrooms.4242.v2' },
      { type: 'stream.live', title: 'On', channel: 'channel.99' },
    ]);
    expect(connection!.view()).toMatchObject({ state: 'connected', provider: 'centrifugo' });
  });

  it('reconnects by itself after a cut connection', async () => {
    const { arrived } = connect(centrifugo);
    (await server.subscribedTo(CHANNELS)).ws.terminate();
    await server.until(() => server.clients.length === 2);
    await server.subscribedTo(CHANNELS);
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', CHAT);
    await arrived(1);
    expect(server.clients).toHaveLength(2);
  });

  it('stops when the server refuses the token for good', async () => {
    server.tokens.clear();
    connect(centrifugo);
    await new Promise<void>((resolve) =>
      connection!.onChange(() => connection!.view().state === 'refused' && resolve()),
    );
    expect(server.clients).toHaveLength(1);
  });
});

/**
 * Kick's live socket as a hostile or broken server would play it, over real sockets through the real pusher-js
 * client and the live connection: frames for channels Greenroom never subscribed to, and a flood of event names
 * it has never seen. Waits are on what arrives, never on time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../shared/kick/live-events';
import { systemClock } from '../../../electron/core/clock';
import { centrifugeTransport } from '../../../electron/live-socket/centrifuge-transport';
import { LiveConnection, REPEAT_KEYS_MAX } from '../../../electron/live-socket/live-connection';
import { pusherTransport } from '../../../electron/live-socket/pusher-transport';
import { ScriptedLiveServer } from './scripted-live-server';

const IDS = { channelId: 99, chatroomId: 4242 };
const CHANNELS = ['chatrooms.4242.v2', 'chatrooms.4242', 'chatroom_4242', 'channel.99', 'channel_99'];
const chat = (id: string, chatroomId = 4242) => ({
  id,
  chatroom_id: chatroomId,
  content: `line ${id}`,
  sender: { id: 7, username: 'v' },
  created_at: '2026-11-27T10:00:00Z',
});

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

function connect(provider: 'pusher' | 'centrifugo' = 'pusher') {
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
    transports: { pusher: pusherTransport, centrifugo: centrifugeTransport },
    ids: () => Promise.resolve({ ok: true, value: IDS }),
    backoff: { initialMs: 20, maxMs: 100, spread: 0 },
    discover: () =>
      Promise.resolve(
        provider === 'pusher'
          ? { provider, socketUrl: server.url, key: 'k', cluster: 'us2', keySource: 'discovered' }
          : { provider, url: `${server.url}/connection/websocket`, token: 'good-token', keySource: 'discovered' },
      ),
    log: (line) => lines.push(line),
  });
  connection.onEvent((event) => events.push(event));
  connection.start();
  /** Resolves at the first event whose message id is `id`. */
  const seen = (id: string) =>
    new Promise<void>((resolve) => {
      const check = () => (events.some((e) => 'messageId' in e && e.messageId === id) ? resolve() : undefined);
      check();
      connection!.onEvent(check);
    });
  return { events, lines, seen };
}

const ids = (events: LiveEvent[]) => events.flatMap((e) => ('messageId' in e ? [e.messageId] : []));

describe('a hostile live socket', () => {
  it("passes on no event for a channel or chatroom that is not the streamer's", async () => {
    const { events, seen } = connect();
    await server.subscribedTo(CHANNELS);
    // Pusher delivers by channel name; a server that sends another room's frames is not Kick's room.
    server.publish('chatrooms.999.v2', 'App\\Events\\ChatMessageEvent', chat('other-room', 999));
    server.publish('channel.1', 'App\\Events\\MessageDeletedEvent', { message: { id: 'mine' } });
    server.publish('channel.1', 'App\\Events\\UserBannedEvent', { user: { id: 5, username: 'x' } });
    // On the right channel but naming another chatroom: the line is not in this room.
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat('wrong-chatroom', 999));
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat('ours'));
    await seen('ours');
    expect(ids(events)).toEqual(['ours']);
    expect(events.map((e) => e.type)).toEqual(['chat.message']);
  });

  it('keeps no more repeat keys than its cap when every frame brings a new id', async () => {
    const { events, seen } = connect();
    await server.subscribedTo(CHANNELS);
    // A server inventing an id per frame, faster than any raid: the repeat memory lets the oldest keys go.
    for (let i = 0; i <= REPEAT_KEYS_MAX; i++) {
      server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat(`flood-${i}`));
    }
    await seen(`flood-${REPEAT_KEYS_MAX}`);
    // The newest is still known on another alias; the first was let go, so its copy passes again.
    server.publish('chatrooms.4242', 'App\\Events\\ChatMessageEvent', chat(`flood-${REPEAT_KEYS_MAX}`));
    server.publish('chatrooms.4242', 'App\\Events\\ChatMessageEvent', chat('flood-0'));
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat('marker'));
    await seen('marker');
    expect(events).toHaveLength(REPEAT_KEYS_MAX + 3);
    expect(ids(events).slice(-2)).toEqual(['flood-0', 'marker']);
  });

  it("reads event names that are the names of an object's own machinery as unknown, and goes on", async () => {
    const { events, seen } = connect();
    await server.subscribedTo(CHANNELS);
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'App\\Events\\__proto__'];
    for (const name of names) {
      server.publish('chatrooms.4242.v2', name, chat('proto'));
    }
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat('after-proto'));
    await seen('after-proto');
    expect(events.map((e) => e.type)).toEqual(['chat.message']);
    expect(connection!.view()).toMatchObject({ state: 'connected', counters: { events: 1, unknown: names.length } });
  });

  it('reads no frame of megabytes (a pin, a raider, a chat line), and reads the next line', async () => {
    const { events, seen } = connect();
    await server.subscribedTo(CHANNELS);
    const big = 'a'.repeat(2_000_000);
    server.publish('chatrooms.4242.v2', 'App\\Events\\PinnedMessageCreatedEvent', { message: chat(big) });
    server.publish('chatrooms.4242.v2', 'App\\Events\\StreamHostEvent', { host_username: big });
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', { ...chat('big'), content: big });
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatroomUpdatedEvent', { many: new Array(20_000).fill(0) });
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat('after-big'));
    await seen('after-big');
    expect(ids(events)).toEqual(['after-big']);
    expect(events.map((e) => e.type)).toEqual(['chat.message']);
    expect(connection!.view().counters).toMatchObject({ events: 1, malformed: 4 });
  });

  it('closes a Centrifugo line that sends a frame of megabytes, and reads chat on the next one', async () => {
    const { events, seen } = connect('centrifugo');
    await server.subscribedTo(CHANNELS);
    server.publish('chatrooms.4242.v2', 'App\\Events\\PinnedMessageCreatedEvent', {
      message: chat('a'.repeat(2_000_000)),
    });
    await server.until(() => server.clients.length === 2);
    await server.subscribedTo(CHANNELS);
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat('next-line'));
    await seen('next-line');
    expect(events.map((e) => e.type)).toEqual(['chat.message']);
    expect(connection!.view().counters.reconnects).toBe(1);
  });

  it('logs a flood of never-seen event names a bounded number of times, and still reads chat', async () => {
    const { lines, seen } = connect();
    const client = await server.subscribedTo(CHANNELS);
    const FLOOD = 2000;
    // One text frame per name, as a hostile server can send them as fast as the line takes.
    for (let i = 0; i < FLOOD; i++) {
      client.ws.send(JSON.stringify({ event: `Surprise${i}`, channel: 'chatroom_4242', data: '{}' }));
      client.ws.send(JSON.stringify({ event: `Broken${i}`, channel: 'chatroom_4242', data: '{' }));
    }
    server.publish('chatrooms.4242.v2', 'App\\Events\\ChatMessageEvent', chat('after-flood'));
    await seen('after-flood');
    expect(connection!.view().counters).toMatchObject({ unknown: FLOOD, malformed: FLOOD });
    expect(lines.length).toBeLessThan(200);
  });
});

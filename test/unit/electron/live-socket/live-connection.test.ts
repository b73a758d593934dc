import { describe, expect, it } from 'vitest';
import {
  HANDSHAKE_TIMEOUT_MS,
  REPEAT_KEYS_MAX,
  SILENCE_LIMIT_MS,
  STABLE_AFTER_MS,
} from '../../../../electron/live-socket/live-connection';
import { IDS, makeConnection, settle } from './live-socket-fixtures';

const CHAT = (id: string, channel = 'chatrooms.4242.v2') =>
  JSON.stringify({
    event: 'App\\Events\\ChatMessageEvent',
    channel,
    data: JSON.stringify({ id, content: 'hi', sender: { id: 1, username: 'a' }, surprise: true }),
  });

async function connected(over = {}) {
  const made = makeConnection(over);
  made.connection.start();
  await settle();
  made.fake.last.handlers.onOpen();
  return made;
}

describe('LiveConnection', () => {
  it('subscribes to the five public channels of the signed-in channel and passes typed events on', async () => {
    const { connection, fake, events, time } = await connected();
    expect(fake.last.channels).toEqual([
      'chatrooms.4242.v2',
      'chatrooms.4242',
      'chatroom_4242',
      'channel.99',
      'channel_99',
    ]);
    fake.last.handlers.onFrame(CHAT('m1'), null);
    expect(events).toMatchObject([{ type: 'chat.message', messageId: 'm1', content: 'hi' }]);
    expect(connection.view()).toMatchObject({
      state: 'connected',
      provider: 'pusher',
      keySource: 'discovered',
      lastFrameAtMs: time.nowMs,
      counters: { events: 1, unknown: 0, malformed: 0 },
    });
  });

  it('passes a message or a host seen on two aliases once, and both twins of a host (only v1 has the time)', async () => {
    const { fake, events } = await connected();
    fake.last.handlers.onFrame(CHAT('m1'), null);
    fake.last.handlers.onFrame(CHAT('m1', 'chatrooms.4242'), null);
    const host = { chatroom_id: 1, host_username: 'Raider', number_viewers: 7 };
    fake.last.handlers.onFrame({ event: 'App\\Events\\StreamHostEvent', data: host }, 'channel.99');
    fake.last.handlers.onFrame({ event: 'App\\Events\\StreamHostEvent', data: host, channel: 'chatroom_4242' }, null);
    const hosted = { message: { numberOfViewers: 7, createdAt: '2026-01-01T00:00:00Z' }, user: { username: 'raider' } };
    fake.last.handlers.onFrame({ event: 'App\\Events\\StreamHostedEvent', data: hosted }, 'channel.99');
    expect(events.map((e) => (e.type === 'host' ? `host ${e.version}` : e.type))).toEqual([
      'chat.message',
      'host v2',
      'host v1',
    ]);
  });

  it('remembers at most the newest keys within the window, however fast new ids come', async () => {
    const { fake, events } = await connected();
    // A deletion is remembered apart from chat lines: a flood of lines does not push it out.
    const deletion = { event: 'App\\Events\\MessageDeletedEvent', data: { id: 'd1', message: { id: 'gone' } } };
    fake.last.handlers.onFrame(deletion, 'chatrooms.4242.v2');
    expect(events).toMatchObject([{ type: 'chat.deleted', messageId: 'gone' }]);
    events.length = 0;
    // A flood of new ids inside the window (the clock never moves): past the cap, the oldest key is let go.
    for (let i = 0; i <= REPEAT_KEYS_MAX; i++) {
      fake.last.handlers.onFrame(CHAT(`flood-${i}`), null);
    }
    const host = (viewers: number) => ({ chatroom_id: 1, host_username: 'Raider', number_viewers: viewers });
    fake.last.handlers.onFrame({ event: 'App\\Events\\StreamHostEvent', data: host(1) }, 'channel.99');
    expect(events).toHaveLength(REPEAT_KEYS_MAX + 2);
    // The newest keys are still known on another alias; the first one was let go, so its copy passes again.
    fake.last.handlers.onFrame(CHAT(`flood-${REPEAT_KEYS_MAX}`, 'chatrooms.4242'), null);
    fake.last.handlers.onFrame({ event: 'App\\Events\\StreamHostEvent', data: host(1) }, 'chatroom_4242');
    fake.last.handlers.onFrame(CHAT('flood-1', 'chatrooms.4242'), null);
    fake.last.handlers.onFrame(CHAT('flood-0', 'chatrooms.4242'), null);
    expect(events).toHaveLength(REPEAT_KEYS_MAX + 3);
    expect(events.at(-1)).toMatchObject({ type: 'chat.message', messageId: 'flood-0' });
    fake.last.handlers.onFrame(deletion, 'chatroom_4242');
    expect(events).toHaveLength(REPEAT_KEYS_MAX + 3);
  });

  it('counts unknown and unreadable frames and logs each kind once, never throwing', async () => {
    const { connection, fake, lines, events } = await connected();
    for (let i = 0; i < 3; i++) {
      fake.last.handlers.onFrame('{"event":"App\\\\Events\\\\NewThing","data":"{}"}', null);
      fake.last.handlers.onFrame('{not json', null);
      fake.last.handlers.onFrame({ event: 'App\\Events\\ChatMessageEvent', data: '[]' }, null);
    }
    fake.last.handlers.onFrame(CHAT('m2'), null);
    expect(events).toHaveLength(1);
    expect(connection.view().counters).toMatchObject({ events: 1, unknown: 3, malformed: 6 });
    expect(lines.filter((l) => l.includes('NewThing'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('could not be read'))).toHaveLength(2);
  });

  it('asks Settings for the ids when they are not known, and opens nothing', async () => {
    const { connection, fake } = makeConnection({
      ids: () => Promise.resolve({ ok: false, error: 'HTTP 403 (a browser check, not Kick)' }),
    });
    connection.start();
    await settle();
    expect(fake.sessions).toHaveLength(0);
    expect(connection.view()).toMatchObject({ state: 'needs-ids', problem: 'HTTP 403 (a browser check, not Kick)' });
  });

  it('gives up an attempt with no handshake in time, and one that goes silent, and tries again', async () => {
    const { connection, fake, time } = makeConnection();
    connection.start();
    await settle();
    time.advance(HANDSHAKE_TIMEOUT_MS);
    expect(fake.sessions[0]!.closed).toBe(true);
    expect(connection.view()).toMatchObject({ state: 'waiting', lastClose: { code: 4900 } });
    time.advance(1000);
    await settle();
    fake.last.handlers.onOpen();
    time.advance(SILENCE_LIMIT_MS - 1);
    fake.last.handlers.onFrame('{"event":"pusher:pong","data":"{}"}', null);
    time.advance(SILENCE_LIMIT_MS - 1);
    expect(fake.sessions[1]!.closed).toBe(false);
    time.advance(1);
    expect(fake.sessions[1]!.closed).toBe(true);
    expect(connection.view().lastClose?.code).toBe(4901);
  });

  it('keeps one silence timer through a flood of frames, and still closes exactly the limit after the last', async () => {
    let timersSet = 0;
    const made: ReturnType<typeof makeConnection> = makeConnection({
      setTimer: (fn, ms) => (timersSet++, made.time.setTimer(fn, ms)),
    });
    const { connection, fake, time } = made;
    connection.start();
    await settle();
    fake.last.handlers.onOpen();
    const before = timersSet;
    for (let i = 0; i < 1000; i++) {
      time.advance(100);
      fake.last.handlers.onActivity();
      fake.last.handlers.onFrame('{"event":"pusher:pong","data":"{}"}', null);
    }
    // 100 s of frames: no timer was set for them (one more comes only when the first fires, at the limit).
    expect(timersSet - before).toBe(0);
    time.advance(SILENCE_LIMIT_MS - 1);
    expect(fake.last.closed).toBe(false);
    time.advance(1);
    expect(fake.last.closed).toBe(true);
    expect(connection.view().lastClose?.code).toBe(4901);
  });

  it('stops every timer and ignores a late close once stopped', async () => {
    const { connection, fake, time } = await connected();
    const session = fake.last;
    connection.stop();
    expect(session.closed).toBe(true);
    expect(time.pending()).toEqual([]);
    session.handlers.onClose(4200, 'late');
    session.handlers.onFrame(CHAT('late'), null);
    expect(connection.view()).toMatchObject({ state: 'off', counters: { events: 0, reconnects: 0 } });
  });

  it('starts the backoff over after a connection that held', async () => {
    const { connection, fake, time } = await connected();
    fake.last.handlers.onClose(1006, '');
    expect(time.pending()).toEqual([1000]);
    time.advance(1000);
    await settle();
    fake.last.handlers.onOpen();
    fake.last.handlers.onClose(1006, '');
    expect(time.pending()).toEqual([2000]);
    time.advance(2000);
    await settle();
    fake.last.handlers.onOpen();
    time.advance(STABLE_AFTER_MS);
    fake.last.handlers.onClose(1006, '');
    expect(time.pending()).toEqual([1000]);
    expect(connection.view().counters.reconnects).toBe(3);
  });

  it('asks discovery at every connect, with the ids', async () => {
    const asked: unknown[] = [];
    const { fake, time } = await connected({
      discover: (ids: unknown) => {
        asked.push(ids);
        return Promise.resolve({
          provider: 'centrifugo',
          url: 'ws://x/connection/websocket',
          token: 't',
          keySource: 'discovered',
        });
      },
    });
    fake.last.handlers.onClose(3012, 'no ping');
    time.advance(1000);
    await settle();
    expect(asked).toEqual([IDS, IDS]);
    expect(fake.last.target.provider).toBe('centrifugo');
  });
});

/**
 * Chat-room state on the sandbox's live socket, which only the socket carries: chat modes merged into one
 * ChatroomUpdatedEvent, a pinned message and its removal (`data` `"[]"` on the wire), a cleared chat. Bad
 * input is refused naming the field, and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { chatroomIdOf } from '../../../sandbox/live-socket/ids';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import {
  admin,
  CHATROOM,
  fx,
  once,
  pusherClient,
  type RawClient,
  rawPusher,
  send,
  triggerChat,
  useLiveSandbox,
} from './live-socket-fixtures';

useLiveSandbox();

const EVENTS = 'App\\Events\\';

async function listening(): Promise<RawClient> {
  const raw = await rawPusher();
  send(raw, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
  await raw.nextEvent('pusher_internal:subscription_succeeded');
  return raw;
}

describe('chat-room state on the live socket', () => {
  it('sends every mode in ChatroomUpdatedEvent, keeping the ones set before', async () => {
    const raw = await listening();
    await admin('POST', '/live-socket/chatroom', { slow_mode: { enabled: true, message_interval: 10 } });
    const first = JSON.parse((await raw.nextEvent(`${EVENTS}ChatroomUpdatedEvent`)).data as string);
    expect(first).toMatchObject({
      id: chatroomIdOf(STREAMER_USER_ID),
      slow_mode: { enabled: true, message_interval: 10 },
      followers_mode: { enabled: false },
    });
    await admin('POST', '/live-socket/chatroom', { followers_mode: { enabled: true, min_duration: 30 } });
    const second = JSON.parse((await raw.nextEvent(`${EVENTS}ChatroomUpdatedEvent`)).data as string);
    expect(second).toMatchObject({
      slow_mode: { enabled: true, message_interval: 10 },
      followers_mode: { enabled: true, min_duration: 30 },
      subscribers_mode: { enabled: false },
      emotes_mode: { enabled: false },
    });
  });

  it('refuses a bad mode whole, naming the field, and sends nothing', async () => {
    const raw = await listening();
    const cases: [unknown, RegExp][] = [
      [{ slow_mode: { enabled: true, message_interval: -1 } }, /^message_interval: /],
      [{ slow_mode: { enabled: 'yes' } }, /^slow_mode\.enabled: must be a boolean/],
      [{ emotes_mode: { enabled: true }, turbo_mode: { enabled: true } }, /^turbo_mode: not a chat mode/],
      [{}, /^a chat mode is required/],
    ];
    for (const [body, error] of cases) {
      const res = await admin('POST', '/live-socket/chatroom', body);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(error);
    }
    expect(fx.sandbox.live.hub.modesOf(STREAMER_USER_ID).emotes_mode.enabled).toBe(false);
    send(raw, { event: 'pusher:ping', data: {} });
    await raw.nextEvent('pusher:pong');
    expect(raw.frames.some((f) => f.includes('ChatroomUpdatedEvent'))).toBe(false);
  });

  it('pins a chat line in its message shape and unpins with data "[]"', async () => {
    const raw = await listening();
    const id = await triggerChat('pin me');
    const res = await admin('POST', '/live-socket/pin', { message_id: id, duration_seconds: 600 });
    expect(res.status, res.text).toBe(200);
    const pinned = JSON.parse((await raw.nextEvent(`${EVENTS}PinnedMessageCreatedEvent`)).data as string);
    expect(pinned).toMatchObject({
      message: { id, content: 'pin me' },
      duration: '600',
      pinnedBy: { id: STREAMER_USER_ID },
    });
    expect((await admin('DELETE', '/live-socket/pin')).status).toBe(200);
    expect((await raw.nextEvent(`${EVENTS}PinnedMessageDeletedEvent`)).data).toBe('[]');
    const missing = await admin('POST', '/live-socket/pin', { message_id: 'no-such-message' });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatch(/^message_id: /);
  });

  it('reaches pusher-js: an unpin as an empty list, a clear as an event', async () => {
    const pusher = pusherClient();
    const channel = pusher.subscribe(CHATROOM);
    await once((cb) => channel.bind('pusher:subscription_succeeded', cb));
    const unpinned = once<unknown>((cb) => channel.bind(`${EVENTS}PinnedMessageDeletedEvent`, cb));
    const cleared = once<{ id: string }>((cb) => channel.bind(`${EVENTS}ChatroomClearEvent`, cb));
    await admin('DELETE', '/live-socket/pin');
    await admin('POST', '/live-socket/clear');
    expect(await unpinned).toEqual([]);
    expect(typeof (await cleared).id).toBe('string');
  });
});

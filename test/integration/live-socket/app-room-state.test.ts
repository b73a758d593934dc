/**
 * The chat room's state in the app on the embedded sandbox, which plays Kick's live socket: the sandbox's
 * triggers (`/live-socket/chatroom`, `/pin`, `DELETE /pin`, `/clear`) reach the panels as `chat:room-changed`
 * and `chat:room-state`; a hostile pin arrives as a raw frame on the same socket and is bounded; a cut
 * connection makes the state "as of" the drop, and switching the connection off forgets it.
 */
import { describe, expect, it } from 'vitest';
import { PIN_CONTENT_MAX, ROOM_NAME_MAX, type RoomStateView } from '../../../shared/room-state';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { callAdmin, untilSocketListening } from '../../helpers/sandbox';
import { browser, call, fx, received, useSetup } from '../app/create-app-sandbox-mode-fixtures';

useSetup({ liveSocket: true });

/** Resolves with the first room view pushed from now on (or now) that satisfies `check`. */
function roomWhere(check: (view: RoomStateView) => boolean): Promise<RoomStateView> {
  const now = fx.app.router.invoke('chat:room-state', []) as Promise<{ ok: true; value: RoomStateView }>;
  return new Promise((resolve) => {
    const off = fx.app.events.on('chat:room-changed', (view) => {
      if (check(view)) {
        off();
        resolve(view);
      }
    });
    void now.then((result) => {
      if (result.ok && check(result.value)) {
        off();
        resolve(result.value);
      }
    });
  });
}

/** Connected, and the sandbox has the app's subscriptions: the room's state comes by the socket only. */
async function connected(): Promise<void> {
  await new Promise<void>((resolve) => {
    const check = () => fx.app.liveSocket.health().state === 'connected' && (off(), resolve());
    const off = fx.app.events.on('health:changed', () => void check());
    void check();
  });
  await untilSocketListening(fx.sandbox);
}

async function admin(method: string, path: string, body: Record<string, unknown> = {}): Promise<void> {
  const res = await callAdmin(fx.sandbox, method, path, { body });
  expect(res.status, res.text).toBe(200);
}

describe("the chat room's state in the app", () => {
  it('connects once signed in, and knows no modes yet', async () => {
    await call('auth:start-login', {});
    await browser.settled();
    await connected();
    expect(await call('chat:room-state')).toEqual({ modes: null, pinned: null, asOfMs: null, clears: [] });
  });

  it('shows the modes the sandbox sets, as it sets them', async () => {
    await admin('POST', '/live-socket/chatroom', {
      slow_mode: { enabled: true, message_interval: 10 },
      followers_mode: { enabled: true, min_duration: 15 },
    });
    const view = await roomWhere((v) => v.modes?.slow?.seconds === 10);
    expect(view.modes).toEqual({
      slow: { seconds: 10 },
      followersOnly: { minutes: 15 },
      subscribersOnly: false,
      emotesOnly: false,
    });
    await admin('POST', '/live-socket/chatroom', { slow_mode: { enabled: false }, emotes_mode: { enabled: true } });
    await roomWhere((v) => v.modes?.emotesOnly === true && v.modes.slow === null);
    expect((await call('chat:room-state')).modes).toMatchObject({ followersOnly: { minutes: 15 }, emotesOnly: true });
  });

  it('pushes nothing more when a flood of frames repeats the same modes', async () => {
    const pushes = received['chat:room-changed'].length;
    const frame = {
      broadcasterUserId: STREAMER_USER_ID,
      room: 'chatrooms.v2' as const,
      event: 'App\\Events\\ChatroomUpdatedEvent',
      data: { slow_mode: { enabled: false, message_interval: 0 }, subscribers_mode: { enabled: true } },
    };
    for (let i = 0; i < 500; i++) {
      fx.sandbox.ctx.state.emitLive(frame);
    }
    await roomWhere((v) => v.modes?.subscribersOnly === true);
    // A marker change after the flood: everything before it has been handled.
    fx.sandbox.ctx.state.emitLive({ ...frame, data: { subscribers_mode: { enabled: false } } });
    await roomWhere((v) => v.modes?.subscribersOnly === false);
    expect(received['chat:room-changed'].length).toBe(pushes + 2);
  });

  it('shows a pinned message with who pinned it, and takes it down when it is unpinned', async () => {
    const sent = await callAdmin(fx.sandbox, 'POST', `/channels/${STREAMER_USER_ID}/chat`, {
      body: { content: 'schedule: every night at 8', user_id: FIRST_VIEWER_USER_ID },
    });
    const messageId = (JSON.parse(sent.text) as { message_id: string }).message_id;
    await admin('POST', '/live-socket/pin', { message_id: messageId, duration_seconds: 600 });
    const view = await roomWhere((v) => v.pinned !== null);
    expect(view.pinned).toMatchObject({ messageId, content: 'schedule: every night at 8' });
    expect(view.pinned!.expiresAtMs! - view.pinned!.pinnedAtMs).toBe(600_000);
    expect(view.pinned!.pinnedByUsername).not.toBeNull();
    await admin('DELETE', '/live-socket/pin');
    await roomWhere((v) => v.pinned === null);
  });

  it('bounds a hostile pin sent as a raw frame: 10,000 characters, a direction override, a long name', async () => {
    fx.sandbox.ctx.state.emitLive({
      broadcasterUserId: STREAMER_USER_ID,
      room: 'chatrooms.v2',
      event: 'App\\Events\\PinnedMessageCreatedEvent',
      data: {
        message: {
          id: 'hostile-pin',
          content: `\u202E${'y'.repeat(10_000)}`,
          type: 'message',
          created_at: '2026-11-27T13:00:00+00:00',
          sender: { id: 9, username: 'z'.repeat(300), slug: 'z' },
        },
        duration: '99999999',
        pinnedBy: { id: 1, username: 'mod', slug: 'mod' },
      },
    });
    const view = await roomWhere((v) => v.pinned?.messageId === 'hostile-pin');
    expect([...view.pinned!.content]).toHaveLength(PIN_CONTENT_MAX);
    expect(view.pinned!.content.startsWith('y')).toBe(true);
    expect(view.pinned!.senderUsername).toHaveLength(ROOM_NAME_MAX);
    expect(view.pinned!.expiresAtMs! - view.pinned!.pinnedAtMs).toBe(86_400_000);
    await admin('DELETE', '/live-socket/pin');
    await roomWhere((v) => v.pinned === null);
  });

  it('adds one cleared line for a cleared chat, and keeps every chat line', async () => {
    const history = await call('chat:history');
    const pushes = received['chat:room-changed'].length;
    await admin('POST', '/live-socket/clear');
    const view = await roomWhere((v) => v.clears.length === 1);
    expect(view.clears[0]!.atMs).toBeGreaterThan(0);
    // Right after the newest line: chat times are whole seconds, too coarse to place it by time.
    expect(view.clears[0]!.afterMessageId).toBe(history.at(-1)!.messageId);
    expect(received['chat:room-changed'].length).toBe(pushes + 1);
    expect((await call('chat:history')).length).toBe(history.length);
  });

  it('says "as of" the drop when the connection is cut, and forgets when it is switched off', async () => {
    await admin('POST', '/live-socket/drop', { code: 'cut' });
    const stale = await roomWhere((v) => v.asOfMs !== null);
    expect(stale.modes).toMatchObject({ emotesOnly: true });
    await connected();
    expect((await call('chat:room-state')).asOfMs).toBe(stale.asOfMs);
    // A fresh change from Kick makes the modes current again.
    await admin('POST', '/live-socket/chatroom', { subscribers_mode: { enabled: true } });
    await roomWhere((v) => v.asOfMs === null && v.modes?.subscribersOnly === true);

    await call('settings:update', { liveSocket: { enabled: false } });
    const off = await roomWhere((v) => v.modes === null);
    expect(off).toMatchObject({ pinned: null, asOfMs: null });
    expect(off.clears).toHaveLength(1);
  });
});

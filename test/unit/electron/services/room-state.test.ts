/**
 * The chat room's state from Kick's live socket, read from raw frames as the socket sends them
 * (shared/kick/live-frames.ts), so a hostile or odd frame is tested through the parser it really meets.
 */
import { describe, expect, it } from 'vitest';
import { parseLiveFrame } from '../../../../shared/kick/live-frames';
import type { LiveEvent } from '../../../../shared/kick/live-events';
import {
  CLEAR_LINES_MAX,
  PIN_CONTENT_MAX,
  PIN_SECONDS_MAX,
  ROOM_NAME_MAX,
  ROOM_STATE_FORGET_MS,
} from '../../../../shared/room-state';
import { RoomStateTracker } from '../../../../electron/services/room-state';

const T0 = 1_800_000_000_000;
const ROOM = 'chatrooms.70100001.v2';

function event(name: string, data: unknown): LiveEvent {
  const frame = parseLiveFrame(
    JSON.stringify({ event: `App\\Events\\${name}`, channel: ROOM, data: JSON.stringify(data) }),
  );
  if (frame.kind !== 'event') {
    throw new Error(`not an event: ${JSON.stringify(frame)}`);
  }
  return frame.event;
}

const modes = (over: Record<string, unknown> = {}) =>
  event('ChatroomUpdatedEvent', {
    id: 70100001,
    slow_mode: { enabled: false, message_interval: 0 },
    subscribers_mode: { enabled: false },
    followers_mode: { enabled: false, min_duration: 0 },
    emotes_mode: { enabled: false },
    account_age: { enabled: false, min_duration: 0 },
    ...over,
  });

const pin = (content: string, duration: unknown = '1200', username = 'viewer_1', by = 'streamer') =>
  event('PinnedMessageCreatedEvent', {
    message: {
      id: 'b776e9d4-0000-4000-8000-000000000001',
      chatroom_id: 70100001,
      content,
      type: 'message',
      created_at: '2026-11-27T13:00:00+00:00',
      sender: { id: 777, username, slug: 'viewer-1', identity: { color: '#75FD46', badges: [] } },
    },
    duration,
    pinnedBy: { id: 100001, username: by, slug: by },
  });

function upTracker(): RoomStateTracker {
  const tracker = new RoomStateTracker();
  tracker.connection('up', T0);
  return tracker;
}

describe('the room state tracker', () => {
  it('knows no modes until the socket says them, then shows each one that is on', () => {
    const tracker = upTracker();
    expect(tracker.view(T0).modes).toBeNull();
    expect(
      tracker.apply(
        modes({
          slow_mode: { enabled: true, message_interval: 10 },
          followers_mode: { enabled: true, min_duration: 15 },
          emotes_mode: { enabled: true },
        }),
        T0,
      ),
    ).toBe(true);
    expect(tracker.view(T0)).toMatchObject({
      modes: { slow: { seconds: 10 }, followersOnly: { minutes: 15 }, subscribersOnly: false, emotesOnly: true },
      asOfMs: null,
    });
    tracker.apply(modes({ subscribers_mode: { enabled: true } }), T0 + 1);
    expect(tracker.view(T0 + 1).modes).toEqual({
      slow: null,
      followersOnly: null,
      subscribersOnly: true,
      emotesOnly: false,
    });
  });

  it('keeps a mode an update leaves out, and bounds absurd intervals and ages', () => {
    const tracker = upTracker();
    tracker.apply(modes({ emotes_mode: { enabled: true } }), T0);
    tracker.apply(
      event('ChatroomUpdatedEvent', {
        slow_mode: { enabled: true, message_interval: 1e12 },
        followers_mode: { enabled: true, min_duration: '2.5' },
      }),
      T0,
    );
    expect(tracker.view(T0).modes).toEqual({
      slow: { seconds: 86_400 },
      followersOnly: { minutes: 2 },
      subscribersOnly: false,
      emotesOnly: true,
    });
    // A negative or non-numeric interval is not a number Kick could mean: slow mode on, interval unknown.
    tracker.apply(event('ChatroomUpdatedEvent', { slow_mode: { enabled: true, message_interval: '-5' } }), T0);
    expect(tracker.view(T0).modes?.slow).toEqual({ seconds: null });
  });

  it('shows a pin with who pinned it until its duration ends or the socket takes it down', () => {
    const tracker = upTracker();
    tracker.apply(pin('read the rules [emote:37232:PeepoClap]'), T0);
    expect(tracker.view(T0).pinned).toEqual({
      messageId: 'b776e9d4-0000-4000-8000-000000000001',
      content: 'read the rules [emote:37232:PeepoClap]',
      senderUsername: 'viewer_1',
      pinnedByUsername: 'streamer',
      pinnedAtMs: T0,
      expiresAtMs: T0 + 1_200_000,
    });
    expect(tracker.nextDeadline()).toBe(T0 + 1_200_000);
    expect(tracker.view(T0 + 1_199_999).pinned).not.toBeNull();
    expect(tracker.view(T0 + 1_200_000).pinned).toBeNull();
    expect(tracker.tick(T0 + 1_200_000)).toBe(true);
    expect(tracker.nextDeadline()).toBeNull();

    tracker.apply(pin('again'), T0);
    expect(tracker.apply(event('PinnedMessageDeletedEvent', []), T0 + 5)).toBe(true);
    expect(tracker.view(T0 + 5).pinned).toBeNull();
    expect(tracker.apply(event('PinnedMessageDeletedEvent', []), T0 + 6)).toBe(false);
  });

  it('bounds a hostile pin: 10,000 characters, direction overrides, a 60-character name, a year-long duration', () => {
    const tracker = upTracker();
    const long = 'x'.repeat(10_000);
    tracker.apply(pin(`\u202Egnp.exe\u202C ${long}`, String(365 * 86_400), 'n'.repeat(60), `mod\u0000\u200B`), T0);
    const shown = tracker.view(T0).pinned!;
    expect([...shown.content]).toHaveLength(PIN_CONTENT_MAX);
    expect(shown.content.endsWith('…')).toBe(true);
    expect(shown.content).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(shown.senderUsername).toHaveLength(ROOM_NAME_MAX);
    expect(shown.pinnedByUsername).toBe('mod');
    expect(shown.expiresAtMs).toBe(T0 + PIN_SECONDS_MAX * 1000);
    // Emoji built with joiners stay whole.
    tracker.apply(pin('👩‍💻 pinned'), T0);
    expect(tracker.view(T0).pinned?.content).toBe('👩‍💻 pinned');
  });

  it('refuses a pin whose sender has no visible name, and shows one without a duration until it is taken down', () => {
    const tracker = upTracker();
    expect(tracker.apply(pin('hi', '1200', '\u200B\u0007 '), T0)).toBe(false);
    expect(tracker.view(T0).pinned).toBeNull();
    tracker.apply(pin('no end', null), T0);
    expect(tracker.view(T0 + 10 * 86_400_000).pinned).toMatchObject({ content: 'no end', expiresAtMs: null });
  });

  it('adds one cleared line per ChatroomClearEvent, the newest kept', () => {
    const tracker = upTracker();
    for (let i = 0; i < CLEAR_LINES_MAX + 3; i++) {
      tracker.apply(event('ChatroomClearEvent', { id: `c${i}` }), T0 + i, `line-${i}`);
    }
    const clears = tracker.view(T0).clears;
    expect(clears.at(-1)).toMatchObject({
      atMs: T0 + CLEAR_LINES_MAX + 2,
      afterMessageId: `line-${CLEAR_LINES_MAX + 2}`,
    });
    expect(clears).toHaveLength(CLEAR_LINES_MAX);
    expect(clears[0]!.atMs).toBe(T0 + 3);
    expect(new Set(clears.map((c) => c.id)).size).toBe(CLEAR_LINES_MAX);
  });

  it('says "as of" the drop while the connection is down, is current again after a fresh event, forgets after ten minutes', () => {
    const tracker = upTracker();
    tracker.apply(modes({ slow_mode: { enabled: true, message_interval: 5 } }), T0);
    tracker.apply(pin('hello', '86400'), T0);
    expect(tracker.connection('down', T0 + 1000)).toBe(true);
    expect(tracker.view(T0 + 2000).asOfMs).toBe(T0 + 1000);
    // Back up: still "as of" the drop, since a change in the gap was not heard.
    tracker.connection('up', T0 + 3000);
    expect(tracker.view(T0 + 3000).asOfMs).toBe(T0 + 1000);
    tracker.apply(modes(), T0 + 4000);
    // Modes are current; the pin is still as of the drop.
    expect(tracker.view(T0 + 4000)).toMatchObject({ asOfMs: T0 + 1000, modes: { slow: null } });
    expect(tracker.nextDeadline()).toBe(T0 + 1000 + ROOM_STATE_FORGET_MS);
    expect(tracker.view(T0 + 1000 + ROOM_STATE_FORGET_MS)).toMatchObject({ pinned: null, asOfMs: null });
    expect(tracker.tick(T0 + 1000 + ROOM_STATE_FORGET_MS)).toBe(true);
  });

  it('forgets modes and pin at once when the connection is switched off, but keeps the cleared lines', () => {
    const tracker = upTracker();
    tracker.apply(modes({ emotes_mode: { enabled: true } }), T0);
    tracker.apply(event('ChatroomClearEvent', {}), T0);
    expect(tracker.connection('off', T0 + 1)).toBe(true);
    expect(tracker.view(T0 + 1)).toMatchObject({ modes: null, pinned: null, asOfMs: null });
    expect(tracker.view(T0 + 1).clears).toHaveLength(1);
  });

  it('ignores events that are not the room state', () => {
    const tracker = upTracker();
    expect(tracker.apply(event('MessageDeletedEvent', { id: 'x', message: { id: 'm' } }), T0)).toBe(false);
  });
});

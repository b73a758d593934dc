/**
 * The room's state as the app wires it: pushed on every change, on the connection's state changes, and by a
 * timer when a pin expires or what was said before a drop is forgotten (a fake clock, no sleeps).
 */
import { describe, expect, it } from 'vitest';
import { createAppRoomState } from '../../../../electron/app/app-room-state';
import type { LiveEvent } from '../../../../shared/kick/live-events';
import { ROOM_STATE_FORGET_MS, type RoomStateView } from '../../../../shared/room-state';
import type { LiveSocketHealthView } from '../../../../shared/views';
import { FakeTime } from '../live-socket/live-socket-fixtures';

function setup(initial: LiveSocketHealthView['state'] = 'connected') {
  const time = new FakeTime();
  let state = initial;
  const listeners: (() => void)[] = [];
  const pushed: RoomStateView[] = [];
  const room = createAppRoomState({
    clock: { now: time.now },
    setTimer: time.setTimer,
    connectionState: () => state,
    onConnectionChange: (listener) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    push: (view) => pushed.push(view),
    lastMessageId: () => 'newest-line',
  });
  const setState = (next: LiveSocketHealthView['state']) => {
    state = next;
    listeners.forEach((l) => l());
  };
  return { time, room, pushed, setState, listeners };
}

const PIN: LiveEvent = {
  type: 'pin.created',
  channel: null,
  durationSeconds: 60,
  pinnedBy: { id: 1, username: 'streamer', slug: 'streamer' },
  message: {
    messageId: 'm-1',
    chatroomId: 1,
    content: 'pinned words',
    messageType: 'message',
    sender: { id: 2, username: 'viewer', slug: 'viewer', color: null, badges: [] },
    replyTo: null,
    createdAt: null,
  },
};
const EMOTES_ONLY: LiveEvent = {
  type: 'chatroom.updated',
  channel: null,
  slowMode: null,
  followersMode: null,
  subscribersMode: null,
  emotesMode: { enabled: true },
};

describe('the app room state', () => {
  it('pushes each change, and takes the pin down by itself when its minute is up', () => {
    const { time, room, pushed } = setup();
    room.onEvent(PIN);
    expect(pushed.at(-1)?.pinned?.content).toBe('pinned words');
    room.onEvent({ type: 'chat.message', ...PIN.message, channel: null });
    expect(pushed).toHaveLength(1);
    time.advance(59_999);
    expect(pushed).toHaveLength(1);
    time.advance(1);
    expect(pushed).toHaveLength(2);
    expect(pushed.at(-1)?.pinned).toBeNull();
    expect(time.pending()).toEqual([]);
  });

  it('says "as of" the drop while reconnecting, and forgets ten minutes after it', () => {
    const { time, room, pushed, setState } = setup();
    room.onEvent(EMOTES_ONLY);
    const dropAt = time.now();
    setState('waiting');
    expect(pushed.at(-1)).toMatchObject({ asOfMs: dropAt, modes: { emotesOnly: true } });
    setState('connecting');
    setState('connected');
    expect(room.view().asOfMs).toBe(dropAt);
    const before = pushed.length;
    time.advance(ROOM_STATE_FORGET_MS);
    expect(pushed).toHaveLength(before + 1);
    expect(pushed.at(-1)).toMatchObject({ modes: null, asOfMs: null });
  });

  it('forgets at once when the connection is switched off, and pushes nothing for a change that changes nothing', () => {
    const { room, pushed, setState } = setup();
    setState('connected');
    expect(pushed).toHaveLength(0);
    room.onEvent(EMOTES_ONLY);
    setState('off');
    expect(pushed.at(-1)).toMatchObject({ modes: null });
    setState('off');
    expect(pushed).toHaveLength(2);
  });

  it('pushes nothing when the socket repeats the modes, however often', () => {
    const { room, pushed } = setup();
    for (let i = 0; i < 1000; i++) {
      room.onEvent(EMOTES_ONLY);
    }
    expect(pushed).toHaveLength(1);
  });

  it('places a clear after the newest chat line main has', () => {
    const { room, pushed } = setup();
    room.onEvent({ type: 'chat.cleared', channel: null });
    expect(pushed.at(-1)?.clears).toEqual([expect.objectContaining({ afterMessageId: 'newest-line' })]);
  });

  it('stops listening and cancels its timer when stopped', () => {
    const { time, room, pushed, listeners } = setup();
    room.onEvent(PIN);
    room.stop();
    expect(listeners).toHaveLength(0);
    expect(time.pending()).toEqual([]);
    room.onEvent(EMOTES_ONLY);
    expect(pushed).toHaveLength(1);
  });
});

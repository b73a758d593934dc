import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { createEventBatcher } from '../../../../electron/panel-server/event-batcher';

/** A socket that records the frames it was given. */
function fakeSocket(bufferedAmount = 0): WebSocket & { frames: string[]; terminated: () => boolean } {
  const frames: string[] = [];
  let terminated = false;
  return {
    frames,
    terminated: () => terminated,
    bufferedAmount,
    OPEN: 1,
    readyState: 1,
    send: (text: string) => frames.push(text),
    close: () => undefined,
    terminate: () => (terminated = true),
  } as unknown as WebSocket & { frames: string[]; terminated: () => boolean };
}

/** Event names in the order a client received them, whether sent alone or in an `events` frame. */
function received(frames: string[]): string[] {
  return frames.flatMap((text) => {
    const frame = JSON.parse(text) as { type: string; event?: string; events?: { event: string }[] };
    return frame.type === 'events' ? frame.events!.map((e) => e.event) : [frame.event!];
  });
}

describe('createEventBatcher', () => {
  let clock = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
  });
  afterEach(() => vi.useRealTimers());

  const batcherFor = (socket: WebSocket, minIntervalMs = 8) =>
    createEventBatcher({
      clients: new Set([socket]),
      maxBufferedBytes: 1024,
      log: () => undefined,
      minIntervalMs,
      now: () => clock,
    });

  it('sends the first event after a quiet spell at the end of its turn, alone', () => {
    const socket = fakeSocket();
    const batcher = batcherFor(socket);
    batcher.broadcast('kick:event', { n: 1 });
    expect(socket.frames).toHaveLength(0);
    vi.runOnlyPendingTimers();
    expect(socket.frames).toEqual(['{"type":"event","event":"kick:event","payload":{"n":1}}']);
  });

  it('paces a steady stream to one frame per interval, losing and reordering nothing', () => {
    const socket = fakeSocket();
    const batcher = batcherFor(socket);
    // 400 events, one per simulated millisecond, each in its own turn.
    for (let i = 0; i < 400; i++) {
      batcher.broadcast(i % 2 ? 'kick:event' : 'chat:shown', { i });
      clock += 1;
      vi.advanceTimersByTime(1);
    }
    vi.runAllTimers();
    expect(socket.frames.length).toBeGreaterThanOrEqual(400 / 8);
    expect(socket.frames.length).toBeLessThanOrEqual(400 / 8 + 2);
    const payloads = socket.frames.flatMap((text) => {
      const frame = JSON.parse(text) as { events?: { payload: { i: number } }[]; payload?: { i: number } };
      return frame.events ? frame.events.map((e) => e.payload.i) : [frame.payload!.i];
    });
    expect(payloads).toEqual(Array.from({ length: 400 }, (_, i) => i));
  });

  it('with no pacing sends once per turn', () => {
    const socket = fakeSocket();
    const batcher = batcherFor(socket, 0);
    for (let i = 0; i < 5; i++) {
      batcher.broadcast('kick:event', { i });
      batcher.broadcast('chat:shown', { i });
      vi.runOnlyPendingTimers();
    }
    expect(socket.frames).toHaveLength(5);
    expect(received(socket.frames)).toHaveLength(10);
  });

  it('flushNow sends what waits at once, paced or not, and leaves nothing scheduled', () => {
    const socket = fakeSocket();
    const batcher = batcherFor(socket);
    batcher.broadcast('kick:event', { n: 1 });
    vi.runOnlyPendingTimers();
    batcher.broadcast('chat:shown', { n: 2 }); // inside the interval: waits on a timer
    batcher.flushNow();
    expect(received(socket.frames)).toEqual(['kick:event', 'chat:shown']);
    vi.runAllTimers();
    expect(socket.frames).toHaveLength(2);
  });

  it('drops a client that fell too far behind instead of buffering for it', () => {
    const stuck = fakeSocket(4096);
    const fine = fakeSocket();
    const batcher = createEventBatcher({
      clients: new Set([stuck, fine]),
      maxBufferedBytes: 1024,
      log: () => undefined,
      now: () => clock,
    });
    batcher.broadcast('kick:event', { n: 1 });
    vi.runOnlyPendingTimers();
    expect(stuck.frames).toHaveLength(0);
    expect(stuck.terminated()).toBe(true);
    expect(fine.frames).toHaveLength(1);
  });
});

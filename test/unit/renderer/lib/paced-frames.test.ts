import { describe, expect, it, vi } from 'vitest';
import { CHAT_FLUSH_GAP_MS, type FrameSource, pacedFrames } from '../../../../renderer/src/lib/clock';
import { ChatState } from '../../../../renderer/src/lib/state/chat.svelte';
import { createFakeApi } from '../fake-api';
import { message } from '../fixtures';

/**
 * A display at `hz`: `frame()` draws one frame, running what asked for it, with that frame's time. With `coarse`,
 * frame times read as Chromium's do: rounded to 0.1 ms, with up to ±0.1 ms of jitter.
 */
function display(hz: number, coarse = false): { source: FrameSource; frame(): number; at(): number; index(): number } {
  let n = 0;
  let nowMs = 10_000;
  let seed = 7;
  const jitter = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.2;
  let waiting: ((frameMs: number) => void)[] = [];
  return {
    source: (callback) => {
      waiting.push(callback);
    },
    frame() {
      n++;
      nowMs = 10_000 + (n * 1000) / hz;
      if (coarse) {
        nowMs = Math.floor((nowMs + jitter()) * 10) / 10;
      }
      const now = waiting;
      waiting = [];
      for (const callback of now) {
        callback(nowMs);
      }
      return now.length;
    },
    at: () => nowMs,
    index: () => n,
  };
}

/** A raid for `seconds`: a flush asked again as soon as the last one ran (what ChatState does); each run's frame. */
function stormFlushes(hz: number, seconds = 4): number[] {
  const screen = display(hz, true);
  const schedule = pacedFrames(CHAT_FLUSH_GAP_MS, screen.source);
  const ran: number[] = [];
  const ask = (): void =>
    schedule(() => {
      ran.push(screen.index());
      ask();
    });
  ask();
  for (let i = 0; i < hz * seconds; i++) {
    screen.frame();
  }
  return ran;
}

describe('pacedFrames', () => {
  it('runs in the very next frame after a quiet spell', () => {
    const screen = display(60);
    const schedule = pacedFrames(CHAT_FLUSH_GAP_MS, screen.source);
    const ran: number[] = [];
    schedule(() => ran.push(screen.at()));
    screen.frame();
    expect(ran).toHaveLength(1);
    // A second line a second later: drawn at once too.
    for (let i = 0; i < 60; i++) {
      screen.frame();
    }
    schedule(() => ran.push(screen.at()));
    screen.frame();
    expect(ran).toHaveLength(2);
  });

  it('runs every other frame at 60 Hz while asked at every frame, and never drops a run', () => {
    const screen = display(60);
    const schedule = pacedFrames(CHAT_FLUSH_GAP_MS, screen.source);
    const ran: number[] = [];
    let asked = 0;
    let pending = false;
    for (let i = 0; i < 120; i++) {
      // What ChatState does: one request at a time, made again once the last one ran.
      if (!pending) {
        pending = true;
        asked++;
        schedule(() => {
          pending = false;
          ran.push(screen.at());
        });
      }
      screen.frame();
    }
    screen.frame();
    expect(ran).toHaveLength(asked);
    expect(ran.length).toBeGreaterThanOrEqual(59);
    expect(ran.length).toBeLessThanOrEqual(61);
    for (let i = 1; i < ran.length; i++) {
      expect(ran[i]! - ran[i - 1]!).toBeCloseTo(1000 / 30, 5);
    }
  });

  it('keeps runs at least the gap apart on a faster display, and no more than a frame beyond it', () => {
    const screen = display(144);
    const schedule = pacedFrames(CHAT_FLUSH_GAP_MS, screen.source);
    const ran: number[] = [];
    for (let i = 0; i < 20; i++) {
      schedule(() => ran.push(screen.at()));
      while (ran.length === i) {
        screen.frame();
      }
    }
    for (let i = 1; i < ran.length; i++) {
      const gap = ran[i]! - ran[i - 1]!;
      expect(gap).toBeGreaterThanOrEqual(CHAT_FLUSH_GAP_MS);
      expect(gap).toBeLessThan(CHAT_FLUSH_GAP_MS + 1000 / 144);
    }
  });
});

describe('the chat flush on any display', () => {
  it.each([30, 60, 75, 90, 120, 144, 165, 240])('adds rows at most about 30 times a second at %i Hz', (hz) => {
    const perSecond = stormFlushes(hz).length / 4;
    expect(perSecond, `${perSecond} flushes a second at ${hz} Hz`).toBeLessThanOrEqual(30.25);
    // Yet never fewer than one every 2.5 frames of 60 Hz: the gap is under two of them.
    expect(perSecond).toBeGreaterThanOrEqual(24);
  });

  it.each([60, 120, 144, 240])('keeps an even cadence at %i Hz with frame times as Chromium reads them', (hz) => {
    const ran = stormFlushes(hz);
    const apart = new Set(ran.slice(1).map((frame, i) => frame - ran[i]!));
    expect([...apart], 'frames between flushes').toHaveLength(1);
  });
});

describe('the chat flush on paced frames', () => {
  it('adds a storm’s lines every other frame, all of them and in order', () => {
    const screen = display(60);
    const chat = new ChatState(createFakeApi().api, pacedFrames(CHAT_FLUSH_GAP_MS, screen.source));
    const counts: number[] = [];
    let sent = 0;
    for (let frame = 0; frame < 60; frame++) {
      // Seven lines a frame: 420 a second.
      for (let i = 0; i < 7; i++) {
        chat.receive(message({ messageId: `m${sent++}` }));
      }
      screen.frame();
      counts.push(chat.messages.length);
    }
    screen.frame();
    screen.frame();
    expect(chat.messages.map((m) => m.messageId)).toEqual(Array.from({ length: sent }, (_, i) => `m${i}`));
    // The log grew in 30 steps over the 60 frames, not 60.
    expect(new Set(counts).size).toBeLessThanOrEqual(31);
    expect(new Set(counts).size).toBeGreaterThanOrEqual(29);
  });

  it('flushes on the page’s own frames when given no scheduler', async () => {
    const chat = new ChatState(createFakeApi().api);
    chat.receive(message({ messageId: 'calm' }));
    expect(chat.messages).toHaveLength(0);
    await vi.waitFor(() => expect(chat.messages.map((m) => m.messageId)).toEqual(['calm']), { timeout: 2000 });
  });
});

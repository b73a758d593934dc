/**
 * Time and frame sources the panel state runs on. Injected so tests drive countdowns, debounces and the
 * chat flush's frames by hand instead of waiting on real timers ([code style point 12](../../../docs/code-style.md#core-modules-adapters-injection), on the renderer side).
 */

/** Wall-clock time plus cancellable timers. */
export interface Clock {
  now(): number;
  /** Runs `fn` once after `ms`; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** Runs `fn` every `ms`; returns a cancel function. */
  setInterval(fn: () => void, ms: number): () => void;
}

/** Runs `fn` before a coming paint (or soon, where frames are not available): the chat flush's (`pacedFrames`). */
export type FrameScheduler = (fn: () => void) => void;

/** The browser's clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const id = globalThis.setTimeout(fn, ms);
    return () => globalThis.clearTimeout(id);
  },
  setInterval(fn, ms) {
    const id = globalThis.setInterval(fn, ms);
    return () => globalThis.clearInterval(id);
  },
};

/** A frame source: runs its callback before the next paint, with the frame's start time in ms. */
export type FrameSource = (callback: (frameMs: number) => void) => void;

const browserFrames: FrameSource = (callback) => {
  if (typeof requestAnimationFrame === 'function') {
    requestAnimationFrame(callback);
  } else {
    globalThis.setTimeout(() => callback(performance.now()), 16);
  }
};

/**
 * The chat flush's frames: the next frame, unless the last run was less than `minGapMs` before it; then the first
 * frame at least that long after. A line in calm chat is drawn in the next frame as before; in a raid, rows are
 * added at most about 30 times a second instead of at every frame. Every frame that adds rows also lays the log
 * out again, moves its spacers, scrolls it and hands its layers to the compositor, whatever the number of rows, so
 * that cost is per frame, not per line. In storm rounds the panel's renderer took about a fifth less CPU a message
 * this way than with a flush at every frame, for a frame more latency in a raid
 * (docs/decisions.md#chat-rows-are-added-at-most-30-times-a-second).
 */
export function pacedFrames(minGapMs: number, frame: FrameSource = browserFrames): FrameScheduler {
  let lastMs = -Infinity;
  return (fn) => {
    const tick = (frameMs: number): void => {
      if (frameMs - lastMs < minGapMs) {
        frame(tick);
        return;
      }
      lastMs = frameMs;
      fn();
    };
    frame(tick);
  };
}

/**
 * Just under two frames at 60 Hz (33.3 ms), so a raid's rows come every other frame there, and just under a whole
 * number of frames at 120, 144 and 240 Hz too (4, 5 and 8): at most about 30 flushes a second on any display, each
 * at most about 32 ms later than the next frame would have been (one frame at 60 Hz). Chromium rounds frame times to
 * 0.1 ms, so the gap keeps over a millisecond from every frame boundary; at 25 ms, exactly three 120 Hz frames, each
 * flush fell on the third or the fourth frame at random.
 */
export const CHAT_FLUSH_GAP_MS = 32;

/**
 * The chat flush's scheduler, one per chat: each keeps the time of its own last run. A chat storm of 400 messages a
 * second then costs one DOM update per flush instead of one per message
 * ([design notes](../../../docs/design-notes.md#event-path-the-hot-path), "Event path").
 */
export const chatFlushFrames = (): FrameScheduler => pacedFrames(CHAT_FLUSH_GAP_MS);

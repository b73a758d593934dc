/**
 * Time and frame sources the panel state runs on. Injected so tests drive countdowns, debounces and the
 * per-frame chat flush by hand instead of waiting on real timers ([code style point 12](../../../docs/code-style.md#core-modules-adapters-injection), on the renderer side).
 */

/** Wall-clock time plus cancellable timers. */
export interface Clock {
  now(): number;
  /** Runs `fn` once after `ms`; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** Runs `fn` every `ms`; returns a cancel function. */
  setInterval(fn: () => void, ms: number): () => void;
}

/** Runs `fn` before the next paint (or soon after, where frames are not available). */
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

/**
 * One flush per animation frame. A chat storm of 400 messages a second then costs one DOM update per frame
 * instead of one per message ([design notes](../../../docs/design-notes.md#event-path-the-hot-path), "Event path").
 */
export const animationFrameScheduler: FrameScheduler = (fn) => {
  if (typeof requestAnimationFrame === 'function') {
    requestAnimationFrame(() => fn());
  } else {
    globalThis.setTimeout(fn, 16);
  }
};

/**
 * The one timer port: every module that plans a call for later takes a `SetTimer` among its dependencies, so a
 * test fires the call when it says so instead of waiting (test/helpers/manual-scheduler.ts), and the clock and
 * the timers stay injected like everything else ([code style](../../docs/code-style.md#core-modules-adapters-injection)).
 * The planned call comes back as a `Timer` that cancels only itself: there is no handle to hand to the wrong
 * `clear`, and cancelling twice, or after it ran, does nothing.
 */

/** A planned call that can be called off. */
export interface Timer {
  cancel(): void;
}

/** Plans `callback` after `ms` milliseconds. */
export type SetTimer = (callback: () => void, ms: number) => Timer;

/** Node's timers as they are: a pending one keeps the process alive (a request's own timeout, a retry). */
export const nodeTimer: SetTimer = (callback, ms) => {
  const handle = setTimeout(callback, ms);
  return { cancel: () => clearTimeout(handle) };
};

/** Node's timers that do not keep the process alive: the app's background work (polls, batches, expiries). */
export const unrefTimer: SetTimer = (callback, ms) => {
  const handle = setTimeout(callback, ms);
  handle.unref();
  return { cancel: () => clearTimeout(handle) };
};

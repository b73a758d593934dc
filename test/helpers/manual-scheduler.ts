import { expect } from 'vitest';
import type { SetTimer, Timer } from '../../electron/core/scheduler';

/**
 * The timer port (electron/core/scheduler.ts) whose timers fire only when a test says so: backoff and intervals
 * without waiting. Pass `scheduler.setTimer` where a module takes a `SetTimer`.
 */
export class ManualScheduler {
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  #next = 1;

  readonly setTimer: SetTimer = (callback, ms) => {
    const id = this.#next++;
    this.pending.set(id, { callback, ms });
    return new ManualTimer(() => this.pending.delete(id));
  };

  /** Fires the only pending timer (there must be exactly one: one retry or run in flight at a time). */
  fireOnly(): number {
    expect(this.pending.size).toBe(1);
    const [id, timer] = [...this.pending][0]!;
    this.pending.delete(id);
    timer.callback();
    return timer.ms;
  }
}

class ManualTimer implements Timer {
  readonly #cancel: () => void;
  constructor(cancel: () => void) {
    this.#cancel = cancel;
  }
  cancel(): void {
    this.#cancel();
  }
}

import { expect } from 'vitest';
import type { Scheduler } from '../../electron/webhooks/tunnel/tunnel';

/** A Scheduler whose timers fire only when a test says so: backoff and intervals without waiting. */
export class ManualScheduler implements Scheduler {
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  #next = 1;

  setTimer(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { callback, ms });
    return id;
  }

  clearTimer(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Fires the only pending timer (there must be exactly one: one retry or run in flight at a time). */
  fireOnly(): number {
    expect(this.pending.size).toBe(1);
    const [id, timer] = [...this.pending][0]!;
    this.pending.delete(id);
    timer.callback();
    return timer.ms;
  }
}

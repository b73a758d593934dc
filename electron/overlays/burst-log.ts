/**
 * One log line for a burst of the same happening, not one per item: a raid can drop dozens of alerts for
 * being too old, one after another as each reaches the set age, and a line each would bury the rest of the
 * log ([overlays](../../docs/overlays.md#controlling-the-alert-queue)). Counts what is added and writes one
 * summary once the burst has been quiet for `quietMs`, or `longestMs` after its first item while it goes on,
 * so a steady stream still writes one line a minute. Timers come from the injected timer port, unref'd in the app.
 */
import type { SetTimer, Timer } from '../core/scheduler';

export interface BurstLogDeps {
  setTimer: SetTimer;
  /** Writes the summary of `count` items. */
  write: (count: number) => void;
  quietMs?: number;
  longestMs?: number;
}

export class BurstLog {
  readonly #options: BurstLogDeps;
  #count = 0;
  #quietTimer: Timer | null = null;
  #longestTimer: Timer | null = null;

  constructor(options: BurstLogDeps) {
    this.#options = options;
  }

  /** Counts `n` more; the line comes when the burst ends. */
  add(n = 1): void {
    if (n <= 0) {
      return;
    }
    const { setTimer } = this.#options;
    this.#count += n;
    this.#longestTimer ??= setTimer(() => this.flush(), this.#options.longestMs ?? 60_000);
    this.#quietTimer?.cancel();
    this.#quietTimer = setTimer(() => this.flush(), this.#options.quietMs ?? 5_000);
  }

  /** Writes the line now, if anything was counted (the burst ended, or Greenroom stops). */
  flush(): void {
    this.#quietTimer?.cancel();
    this.#longestTimer?.cancel();
    this.#quietTimer = null;
    this.#longestTimer = null;
    const count = this.#count;
    this.#count = 0;
    if (count > 0) {
      this.#options.write(count);
    }
  }
}

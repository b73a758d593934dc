/**
 * At most one run per `minMs`: the first call after a quiet spell runs at once, later ones within the interval
 * collapse into one run at its end, of the newest function given. For views that a burst would otherwise redraw
 * on every event, where a few redraws a second read the same (the mod log while auto-moderation works through a
 * raid, docs/decisions.md "What the slower machine showed").
 */
import { type Clock, systemClock } from './clock';

export class Pacer {
  readonly #minMs: number;
  readonly #clock: Clock;
  #lastAt = -Infinity;
  #cancel: (() => void) | null = null;
  #latest: (() => void) | null = null;

  constructor(minMs: number, clock: Clock = systemClock) {
    this.#minMs = minMs;
    this.#clock = clock;
  }

  run(fn: () => void): void {
    const wait = this.#lastAt + this.#minMs - this.#clock.now();
    if (wait <= 0 && this.#cancel === null) {
      this.#lastAt = this.#clock.now();
      fn();
      return;
    }
    this.#latest = fn;
    this.#cancel ??= this.#clock.setTimeout(
      () => {
        this.#cancel = null;
        const latest = this.#latest;
        this.#latest = null;
        this.#lastAt = this.#clock.now();
        latest?.();
      },
      Math.max(0, wait),
    );
  }

  /** Drops a pending run (the view is going away). */
  dispose(): void {
    this.#cancel?.();
    this.#cancel = null;
    this.#latest = null;
  }
}

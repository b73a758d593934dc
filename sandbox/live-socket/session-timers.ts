/** Per-connection timers and budgets the socket sessions share. */

/**
 * Silence detection: after `quietMs` with nothing heard, `onQuiet` (a ping); then, if still nothing within
 * `graceMs`, `onSilent` (the close). Anything heard starts the wait again.
 */
export class Watchdog {
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(
    private readonly quietMs: number,
    private readonly onQuiet: () => void,
    private readonly graceMs: number,
    private readonly onSilent: () => void,
  ) {}

  start(): void {
    this.heard();
  }

  heard(): void {
    if (this.#stopped) {
      return;
    }
    this.#clear();
    this.#timer = setTimeout(() => {
      this.onQuiet();
      this.#timer = setTimeout(() => this.onSilent(), this.graceMs);
      this.#timer.unref();
    }, this.quietMs);
    this.#timer.unref();
  }

  stop(): void {
    this.#stopped = true;
    this.#clear();
  }

  #clear(): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
  }
}

/** At most `max` frames per `windowMs` (a fixed window), so a flood is cut off early. */
export class FrameBudget {
  #windowStart = Number.NEGATIVE_INFINITY;
  #count = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Spends one frame; false once the window's budget is gone. */
  take(): boolean {
    const now = this.now();
    if (now - this.#windowStart >= this.windowMs) {
      this.#windowStart = now;
      this.#count = 0;
    }
    this.#count++;
    return this.#count <= this.max;
  }
}

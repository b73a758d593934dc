/**
 * Time source injected everywhere time matters (token expiry, replay windows, delivery retries), so tests
 * and the sandbox can move time without sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Wall time plus an offset that only moves forward. The sandbox runs on one so a developer (or a test)
 * can jump a day ahead to see Kick's automatic unsubscription without waiting a day.
 */
export class AdjustableClock implements Clock {
  #offsetMs = 0;
  readonly #base: Clock;

  constructor(base: Clock = systemClock, startAtMs?: number) {
    this.#base = base;
    if (startAtMs !== undefined) {
      this.#offsetMs = startAtMs - base.now();
    }
  }

  now(): number {
    return this.#base.now() + this.#offsetMs;
  }

  /** Moves time forward; a negative amount is a programmer error. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(`clock can only move forward, got ${ms} ms`);
    }
    this.#offsetMs += ms;
  }
}

/** RFC 3339 in UTC with milliseconds, as Kick writes `created_at` fields. */
export function toRfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

/** RFC 3339 in UTC without fractional seconds, as Kick writes `Kick-Event-Message-Timestamp`. */
export function toRfc3339Seconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

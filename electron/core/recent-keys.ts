/**
 * Keys seen within a sliding window of time, at most `max` of them: the webhook dedup's recent bodies and the
 * live socket's repeat memory. A `Map` keeps insertion order, and a key remembered again moves to its end, so
 * the order is time order: what expired, and past the cap the oldest, is dropped from the front as keys come,
 * without a timer or a sweep.
 */
export class RecentKeys {
  readonly #at = new Map<string, number>();
  readonly #windowMs: number;
  readonly #max: number;

  constructor(windowMs: number, max: number) {
    this.#windowMs = windowMs;
    this.#max = max;
  }

  get size(): number {
    return this.#at.size;
  }

  /** Whether `key` was remembered at most the window before `nowMs`. */
  has(key: string, nowMs: number): boolean {
    const at = this.#at.get(key);
    return at !== undefined && nowMs - at <= this.#windowMs;
  }

  /** Remembers `key` at `nowMs`, as the newest; then lets go of what expired and, past the cap, the oldest. */
  remember(key: string, nowMs: number): void {
    this.#at.delete(key);
    this.#at.set(key, nowMs);
    for (const [oldest, at] of this.#at) {
      if (this.#at.size <= this.#max && nowMs - at <= this.#windowMs) {
        break;
      }
      this.#at.delete(oldest);
    }
  }

  /** True for a key seen within the window; otherwise remembers it and says false. */
  seenOrRemember(key: string, nowMs: number): boolean {
    if (this.has(key, nowMs)) {
      return true;
    }
    this.remember(key, nowMs);
    return false;
  }
}

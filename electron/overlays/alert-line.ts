/**
 * The alerts waiting their turn, in the order Kick's events arrived, for the alert queue (alert-queue.ts).
 * A `copy` (a test alert, a replay) is never recorded as shown and never too old. Pure.
 *
 * Too-old alerts go from the front of the line only (copies aside): one waiting behind a fresher alert
 * (Kick delivered it late) goes when it reaches the front. So every real alert that leaves, leaves in
 * arrival order, and "everything up to the last one handled" stays true across a restart
 * (docs/overlays.md#controlling-the-alert-queue).
 */
import type { AlertSource } from '../services/alert-source';

/** One alert in line. */
export interface Queued {
  source: AlertSource;
  copy: boolean;
}

/** A waiting alert that grew too old, and how old it was. */
export interface TooOld {
  source: AlertSource;
  ageMs: number;
}

export class AlertLine {
  readonly #max: number;
  readonly #onDropOldest: (dropped: AlertSource) => void;
  #entries: Queued[] = [];

  /** `onDropOldest` hears each alert dropped past `max` (the queue logs them once per burst). */
  constructor(max: number, onDropOldest: (dropped: AlertSource) => void) {
    this.#max = max;
    this.#onDropOldest = onDropOldest;
  }

  get length(): number {
    return this.#entries.length;
  }

  /** Last in line; past the limit, the oldest is dropped and reported. */
  push(entry: Queued): void {
    this.#entries.push(entry);
    this.#trim();
  }

  /** First in line (a replay). */
  pushFirst(entry: Queued): void {
    this.#entries.unshift(entry);
    this.#trim();
  }

  shift(): Queued | undefined {
    return this.#entries.shift();
  }

  /** Empties the line; returns the newest real alert in it (handled now), if any. */
  clear(): AlertSource | undefined {
    const last = this.#entries.findLast((entry) => !entry.copy)?.source;
    this.#entries = [];
    return last;
  }

  /** Keeps only the alerts `keep` accepts (a restart's replay: those not shown before it). */
  filter(keep: (source: AlertSource) => boolean): void {
    this.#entries = this.#entries.filter((entry) => keep(entry.source));
  }

  /** Removes the real alerts at the front whose event is at least `maxAgeMs` old; returns them, oldest first. */
  dropTooOld(nowMs: number, maxAgeMs: number): TooOld[] {
    const dropped: TooOld[] = [];
    let fresherAhead = false;
    this.#entries = this.#entries.filter(({ source, copy }) => {
      const ageMs = nowMs - source.eventAtMs;
      if (copy || fresherAhead || ageMs < maxAgeMs) {
        fresherAhead ||= !copy;
        return true;
      }
      dropped.push({ source, ageMs });
      return false;
    });
    return dropped;
  }

  /** When the first real alert in line happened (the next one to grow too old), or null. */
  firstEventAtMs(): number | null {
    return this.#entries.find((entry) => !entry.copy)?.source.eventAtMs ?? null;
  }

  #trim(): void {
    if (this.#entries.length > this.#max) {
      this.#onDropOldest(this.#entries.shift()!.source);
    }
  }
}

/**
 * Late events ([late events](../docs/design-notes.md#late-events)): Kick's webhook queue can fall minutes
 * behind, and a thank-you or an alert for a sub the streamer already thanked ten minutes ago is worse than
 * none. An event older than the streamer's "late" age (when it happened, by Kick's `created_at`, against when
 * it reached Greenroom) is still recorded in the feed, marked late, but the bot, the alert box and the OBS
 * actions skip it. While deliveries run late, one digest in Activity lists what came late, one per episode.
 * Pure: the times are given, nothing here reads a clock.
 */
import { z } from 'zod';

/** The "late" age's limits, in seconds: under 30 s is ordinary network and retry delay. */
export const LATE_AFTER_MIN_SEC = 30;
/** An hour: past that the setting would never mark anything. */
export const LATE_AFTER_MAX_SEC = 3600;
/** Default: two minutes. */
export const DEFAULT_LATE_AFTER_SEC = 120;
/** The setting as the panel and the settings file check it, its limits named in the refusal. */
export const lateAfterSecSchema = z
  .int('must be a whole number of seconds')
  .min(LATE_AFTER_MIN_SEC, `must be at least ${LATE_AFTER_MIN_SEC} seconds`)
  .max(LATE_AFTER_MAX_SEC, `must be at most ${LATE_AFTER_MAX_SEC} seconds (1 hour)`);

/** Events listed in one digest; the count goes on past it. */
export const LATE_DIGEST_LIST_MAX = 50;

/** Whether an event that happened at `happenedAtMs` is late when it arrives at `receivedAtMs`. */
export function isLate(happenedAtMs: number | null, receivedAtMs: number, lateAfterSec: number): boolean {
  if (happenedAtMs === null || !Number.isFinite(happenedAtMs) || !Number.isFinite(receivedAtMs)) {
    // No readable time: nothing says it is late, so it is acted on as before.
    return false;
  }
  return receivedAtMs - happenedAtMs > lateAfterSec * 1000;
}

/** One late event as the digest lists it. */
export interface LateEntry {
  /** The feed item's id. */
  id: string;
  /** Its one-line summary. */
  text: string;
  /** When Kick says it happened. */
  happenedAtMs: number;
}

/** The digest of one episode of late deliveries, as the feed keeps it. */
export interface LateDigest {
  /** Stable for the episode, so the feed updates one entry in place. */
  id: string;
  /** How many events arrived late in this episode (the list may be shorter). */
  count: number;
  /** When the episode began (the first late event's arrival). */
  startedAtMs: number;
  entries: LateEntry[];
}

/** The digest's line, in a streamer's words. */
export function lateDigestText(count: number): string {
  return count === 1
    ? "1 event arrived late while Kick's webhooks were behind"
    : `${count} events arrived late while Kick's webhooks were behind`;
}

/**
 * Episodes of late deliveries. An episode opens with the first late event and closes when an event arrives
 * on time (Kick's queue caught up) or when nothing late has come for the "late" age; a late event after
 * that opens a new episode with its own digest.
 */
export class LateEpisodes {
  #current: LateDigest | null = null;
  #lastLateAtMs = 0;

  /**
   * Notes one live event as it arrives. Returns the episode's digest, updated, when the event was late;
   * null otherwise.
   */
  note(entry: LateEntry, late: boolean, receivedAtMs: number, lateAfterSec: number): LateDigest | null {
    if (!late) {
      this.#current = null;
      return null;
    }
    if (this.#current && receivedAtMs - this.#lastLateAtMs > lateAfterSec * 1000) {
      this.#current = null;
    }
    this.#lastLateAtMs = receivedAtMs;
    const digest = (this.#current ??= {
      id: `late-digest-${receivedAtMs}-${entry.id}`,
      count: 0,
      startedAtMs: receivedAtMs,
      entries: [],
    });
    digest.count += 1;
    if (digest.entries.length < LATE_DIGEST_LIST_MAX) {
      digest.entries.push({ ...entry });
    }
    return { ...digest, entries: digest.entries.map((e) => ({ ...e })) };
  }
}

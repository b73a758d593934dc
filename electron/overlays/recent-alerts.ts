/**
 * The alerts of the newest activity-feed entries, by entry id, so "Replay alert" on a feed entry plays
 * its alert again (docs/overlays.md#controlling-the-alert-queue). Filled from every event, the journal's
 * at start-up too, so entries restored after a restart can be replayed.
 */
import type { AlertSource } from '../services/alert-source';
import { feedItemIdOf } from './too-old-alerts';

/** As many as the activity feed keeps, and then some (electron/services/feed.ts keeps 500). */
export const RECENT_ALERTS_KEPT = 1000;

export class RecentAlerts {
  readonly #byFeedItem = new Map<string, AlertSource>();

  /** Notes an event's alert; a redemption's later deliveries (accepted, rejected) keep its first. */
  note(source: AlertSource): void {
    const key = feedItemIdOf(source);
    if (this.#byFeedItem.has(key)) {
      return;
    }
    this.#byFeedItem.set(key, source);
    if (this.#byFeedItem.size > RECENT_ALERTS_KEPT) {
      this.#byFeedItem.delete(this.#byFeedItem.keys().next().value!);
    }
  }

  /** The alert of a feed entry, or null when it raised none or is older than what is kept. */
  get(feedItemId: string): AlertSource | null {
    return this.#byFeedItem.get(feedItemId) ?? null;
  }
}

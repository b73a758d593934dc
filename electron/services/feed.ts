/**
 * The activity feed kept in main: the last N non-chat events, newest last, restored from the journal at
 * start. A redemption is one entry whose status changes in place (pending → accepted/rejected), whichever
 * webhook or panel action brought the change.
 */
import type { FeedItem } from '../../shared/views';
import { redemptionItemId } from './event-views';

/** Feed entries kept in main (the panel may show fewer). */
export const DEFAULT_FEED_CAPACITY = 500;

type RedemptionStatus = NonNullable<FeedItem['redemption']>['status'];

/** The bounded activity feed, oldest first. */
export class Feed {
  readonly #capacity: number;
  /** Oldest first. */
  #items: FeedItem[] = [];
  readonly #byId = new Map<string, FeedItem>();

  constructor(capacity = DEFAULT_FEED_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`feed capacity must be a positive integer, got ${capacity}`);
    }
    this.#capacity = capacity;
  }

  /**
   * Adds an item, or updates the one with the same id in place (a redemption's new status). Returns the
   * item as kept, or null when nothing changed (the same delivery seen twice).
   */
  upsert(item: FeedItem): FeedItem | null {
    const existing = this.#byId.get(item.id);
    if (!existing) {
      const kept = { ...item };
      this.#items.push(kept);
      this.#byId.set(kept.id, kept);
      this.#trim();
      return kept;
    }
    // A late-events digest grows in place: one entry per episode ([late events](../../docs/design-notes.md#late-events)).
    if (item.lateDigest && existing.lateDigest) {
      if (item.lateDigest.count === existing.lateDigest.count) {
        return null;
      }
      existing.text = item.text;
      existing.lateDigest = structuredClone(item.lateDigest);
      return existing;
    }
    if (!item.redemption || !existing.redemption || existing.redemption.status === item.redemption.status) {
      return null;
    }
    existing.redemption = { ...existing.redemption, status: item.redemption.status };
    return existing;
  }

  /** Sets a redemption's status after an accept/reject from the panel; returns the updated item, if kept. */
  setRedemptionStatus(redemptionId: string, status: RedemptionStatus): FeedItem | null {
    const item = this.#byId.get(redemptionItemId(redemptionId));
    if (!item?.redemption || item.redemption.status === status) {
      return null;
    }
    item.redemption = { ...item.redemption, status };
    return item;
  }

  /** The newest name the feed has seen for a user (a redeemer, a follower, a gifter), or null. */
  usernameOf(userId: number): string | null {
    return this.#items.findLast((item) => item.userId === userId && item.username !== null)?.username ?? null;
  }

  /** Oldest first. */
  items(): FeedItem[] {
    return this.#items.map((item) => ({ ...item }));
  }

  #trim(): void {
    if (this.#items.length <= this.#capacity) {
      return;
    }
    for (const dropped of this.#items.splice(0, this.#items.length - this.#capacity)) {
      this.#byId.delete(dropped.id);
    }
  }
}

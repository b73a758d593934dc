/**
 * The alerts dropped as too old to play, as the panel lists them ("3 alerts were too old to play"): how many
 * since the streamer last dismissed the list, how many of them for which limit, and the newest of them
 * (docs/overlays.md#controlling-the-alert-queue). Pure.
 */
import {
  DROPPED_ALERTS_LISTED,
  type AlertQueueView,
  type DroppedAlertLimit,
  type DroppedAlertView,
} from '../../shared/overlays';
import { redemptionItemId } from '../services/event-views';
import type { AlertSource } from '../services/alert-source';

/** The activity-feed entry an alert's event made (a redemption's is one entry for all its deliveries). */
export function feedItemIdOf(source: AlertSource): string {
  return source.redemptionId === undefined ? source.id : redemptionItemId(source.redemptionId);
}

export class TooOldAlerts {
  /** Newest first. */
  #items: DroppedAlertView[] = [];
  #count = 0;
  #lateCount = 0;

  /** `source` was `ageMs` late when `limit` held it back; `text` is what it would have shown. */
  add(source: AlertSource, ageMs: number, text: string, limit: DroppedAlertLimit): void {
    this.#count += 1;
    if (limit === 'late-age') {
      this.#lateCount += 1;
    }
    this.#items.unshift({
      id: source.id,
      feedItemId: feedItemIdOf(source),
      kind: source.kind,
      text,
      eventAtMs: source.eventAtMs,
      ageMs,
      limit,
    });
    if (this.#items.length > DROPPED_ALERTS_LISTED) {
      this.#items.pop();
    }
  }

  /** The streamer read the list: it starts again from nothing. */
  dismiss(): boolean {
    const had = this.#count > 0;
    this.#items = [];
    this.#count = 0;
    this.#lateCount = 0;
    return had;
  }

  view(): AlertQueueView['tooOld'] {
    return { count: this.#count, lateCount: this.#lateCount, items: this.#items.map((item) => ({ ...item })) };
  }
}

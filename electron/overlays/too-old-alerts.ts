/**
 * The alerts dropped for being older than the set age, as the panel lists them ("3 alerts were too old to
 * play"): how many since the streamer last dismissed the list, and the newest of them
 * (docs/overlays.md#controlling-the-alert-queue). Pure.
 */
import { DROPPED_ALERTS_LISTED, type AlertQueueView, type DroppedAlertView } from '../../shared/overlays';
import { redemptionItemId } from '../services/event-views';
import type { AlertSource } from './alert-source';

/** The activity-feed entry an alert's event made (a redemption's is one entry for all its deliveries). */
export function feedItemIdOf(source: AlertSource): string {
  return source.redemptionId === undefined ? source.id : redemptionItemId(source.redemptionId);
}

export class TooOldAlerts {
  /** Newest first. */
  #items: DroppedAlertView[] = [];
  #count = 0;

  /** `source` was `ageMs` old when dropped; `text` is what it would have shown. */
  add(source: AlertSource, ageMs: number, text: string): void {
    this.#count += 1;
    this.#items.unshift({
      id: source.id,
      feedItemId: feedItemIdOf(source),
      kind: source.kind,
      text,
      eventAtMs: source.eventAtMs,
      ageMs,
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
    return had;
  }

  view(): AlertQueueView['tooOld'] {
    return { count: this.#count, items: this.#items.map((item) => ({ ...item })) };
  }
}

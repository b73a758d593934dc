/**
 * Paces feed notifications, on the desktop and in a browser alike
 * ([panel in a browser](../docs/panel-in-a-browser.md#notifications-in-a-browser)): the first of a burst (a
 * wave of follows, a gift train) is shown at once; the rest of its kind are gathered and said in one
 * notification each `NOTIFY_BURST_MS` while they keep coming ("+12 more follows"); a burst ends after a quiet
 * window. A raid of 300 follows is two notifications, not 300.
 */
import {
  burstSummary,
  type DesktopNotification,
  type NotificationCategory,
  notificationCategory,
} from './feed-notifications';
import type { FeedItem } from './views';

/** How long a burst gathers before one notification says how many more came. */
export const NOTIFY_BURST_MS = 5000;

export interface NotificationBurstsDeps {
  now(): number;
  /** Runs `fn` once after `ms`; returns a cancel function. */
  setTimeout(fn: () => void, ms: number): () => void;
  /** Shows one notification; `first` is true for the first of a burst (the one that may chime). */
  show(note: DesktopNotification, tag: string, first: boolean): void;
  /** Whether anything may be shown now (switched on, permitted, the leading panel…). */
  canShow(): boolean;
}

interface Burst {
  /** The first item's id: the summary's tag, so each summary replaces the one before it. */
  tag: string;
  /** How many came after the first, in all; and since the last summary. */
  more: number;
  unsaid: number;
  latest: DesktopNotification | null;
  cancel: () => void;
}

export class NotificationBursts {
  readonly #deps: NotificationBurstsDeps;
  readonly #bursts = new Map<NotificationCategory, Burst>();

  constructor(deps: NotificationBurstsDeps) {
    this.#deps = deps;
  }

  /** A notification for `item` was wanted: shown at once, or gathered into its burst. Whether one showed. */
  offer(item: FeedItem, note: DesktopNotification): boolean {
    const category = notificationCategory(item);
    if (!category || !this.#deps.canShow()) {
      return false;
    }
    const burst = this.#bursts.get(category);
    if (burst) {
      burst.more++;
      burst.unsaid++;
      burst.latest = note;
      return false;
    }
    this.#deps.show(note, note.itemId, true);
    this.#bursts.set(category, {
      tag: note.itemId,
      more: 0,
      unsaid: 0,
      latest: null,
      cancel: this.#deps.setTimeout(() => this.#windowEnds(category), NOTIFY_BURST_MS),
    });
    return true;
  }

  dispose(): void {
    this.#bursts.forEach((burst) => burst.cancel());
    this.#bursts.clear();
  }

  #windowEnds(category: NotificationCategory): void {
    const burst = this.#bursts.get(category);
    if (!burst) {
      return;
    }
    if (burst.unsaid === 0 || !burst.latest) {
      this.#bursts.delete(category);
      return;
    }
    if (this.#deps.canShow()) {
      this.#deps.show(burstSummary(category, burst.more, burst.latest), `${burst.tag}.more`, false);
    }
    burst.unsaid = 0;
    burst.cancel = this.#deps.setTimeout(() => this.#windowEnds(category), NOTIFY_BURST_MS);
  }
}

/**
 * The goal bar's numbers: follows, subs (gifted ones counted one by one) and KICKs since the stream went
 * live. Fed every event, the journal's at start-up first, so a restart mid-stream restores the bar exactly
 * (docs/overlays.md, "Goal bar"). Before Greenroom has seen a stream start, it counts from the oldest
 * event it kept.
 */
import type { GoalView, OverlaySettings } from '../../shared/overlays';
import type { KickEvent } from '../webhooks/events/types';

export class GoalTally {
  #follows = 0;
  #subs = 0;
  #kicks = 0;

  /** Counts one event; true when a number changed. */
  add(event: KickEvent): boolean {
    if (event.kind !== 'known') {
      return false;
    }
    switch (event.type) {
      case 'livestream.status.updated':
        if (!event.payload.is_live) {
          return false;
        }
        this.#follows = 0;
        this.#subs = 0;
        this.#kicks = 0;
        return true;
      case 'channel.followed':
        this.#follows += 1;
        return true;
      case 'channel.subscription.new':
      case 'channel.subscription.renewal':
        this.#subs += 1;
        return true;
      case 'channel.subscription.gifts':
        this.#subs += event.payload.giftees.length;
        return true;
      case 'kicks.gifted':
        this.#kicks += event.payload.gift.amount;
        return true;
      default:
        return false;
    }
  }

  /** The bar as the goal's settings describe it. */
  view(goal: OverlaySettings['goal']): GoalView {
    const current =
      goal.metric === 'follows'
        ? this.#follows
        : goal.metric === 'subs'
          ? this.#subs
          : goal.metric === 'kicks'
            ? this.#kicks
            : goal.customValue;
    return { label: goal.label, metric: goal.metric, current, target: goal.target };
  }
}

/**
 * Views follow the events ([design notes](../../../../docs/design-notes.md#views-follow-the-events)). The
 * redemption queue, rewards, ads, stream info and the KICKs board each load from main when first shown; after
 * that they read main again when an event says what they show has changed, and all of them after a
 * reconnect, a sign-in or a sign-out. Before, Rewards said "No rewards yet" beside 18 pending redemptions of
 * three rewards created after it loaded, until the page was reloaded.
 *
 * Every panel gets every Kick event (`kick:event`), so the rules live here, once, in the panel: which views an
 * event changes (`viewsChangedBy`), and at most one reload of a view per `VIEW_REFRESH_MIN_MS` during a burst
 * (a raid's 500 events cost two reloads of a view, not 500), on the panel's one clock. Stream info needs no
 * rule: main reads the channel once per burst of live-status and metadata events and pushes it to every
 * panel (`stream:changed`). A view never shown is not loaded for an event; it loads when shown.
 */
import type { FeedItem } from '../../../../shared/views';
import type { Clock } from '../clock';
import { Pacer } from '../pacer';
import type { LoadFlags } from './load-state.svelte';

/** The views that load from main and follow its events. */
export type RefreshedView = 'redemptions' | 'rewards' | 'ads' | 'stream' | 'kicks';
export const REFRESHED_VIEWS: readonly RefreshedView[] = ['redemptions', 'rewards', 'ads', 'stream', 'kicks'];

/** What a view shows of its load, and how it loads again. */
export interface Reloadable {
  readonly loadState: LoadFlags;
  load(): Promise<void>;
}

/** At most one reload of a view a second while events arrive: live to the eye, cheap in a raid. */
export const VIEW_REFRESH_MIN_MS = 1000;

/** What the rules ask of the rewards view. */
export interface KnownRewards {
  /** The reward is in the list as shown, under this title. */
  knows(rewardId: string, title: string): boolean;
}

/**
 * The views a Kick event changes, beyond what its own view does with the event itself (the queue adds a
 * redemption of a reward it shows; the feed lists every event):
 * - a redemption of a reward the Rewards list lacks, or under another title: the reward was created or
 *   renamed since Rewards loaded (Kick sends no event for a reward's own changes);
 * - KICKs gifted: the leaderboard's figures;
 * - live status: ad breaks run only while live, and enrolment only while offline.
 */
export function viewsChangedBy(item: FeedItem, rewards: KnownRewards): RefreshedView[] {
  switch (item.kind) {
    case 'redemption':
      return item.redemption && !rewards.knows(item.redemption.rewardId, item.redemption.rewardTitle)
        ? ['rewards']
        : [];
    case 'kicks':
      return ['kicks'];
    case 'live-status':
      return ['ads'];
    default:
      return [];
  }
}

/** Reloads views when they change, paced per view, and all of them when the panel's picture may be old. */
export class ViewRefresh {
  readonly #views: Record<RefreshedView, Reloadable>;
  readonly #rewards: KnownRewards;
  readonly #pacers: Record<RefreshedView, Pacer>;

  constructor(
    views: Record<RefreshedView, Reloadable>,
    rewards: KnownRewards,
    clock: Clock,
    minMs = VIEW_REFRESH_MIN_MS,
  ) {
    this.#views = views;
    this.#rewards = rewards;
    this.#pacers = Object.fromEntries(REFRESHED_VIEWS.map((v) => [v, new Pacer(minMs, clock)])) as Record<
      RefreshedView,
      Pacer
    >;
  }

  /** A Kick event: reloads each view it changes that has been shown. */
  onEvent(item: FeedItem): void {
    for (const view of viewsChangedBy(item, this.#rewards)) {
      this.changed(view);
    }
  }

  /** What `view` shows has changed: reloads it now, or once with the rest of a burst. */
  changed(view: RefreshedView): void {
    const target = this.#views[view];
    if (target.loadState.requested) {
      this.#pacers[view].run(() => void target.load());
    }
  }

  /**
   * Everything may have changed (the link came back after a drop, the streamer signed in or out): every view
   * already shown reads main again at once, and so do `also`. A reload a burst left waiting is no longer
   * needed. Returns the loads.
   */
  reloadAll(also: readonly RefreshedView[] = []): Promise<void>[] {
    return REFRESHED_VIEWS.filter((v) => also.includes(v) || this.#views[v].loadState.requested).map((v) => {
      this.#pacers[v].dispose();
      return this.#views[v].load();
    });
  }

  /** Drops reloads still waiting (the panel is closing or starting over). */
  dispose(): void {
    for (const pacer of Object.values(this.#pacers)) {
      pacer.dispose();
    }
  }
}

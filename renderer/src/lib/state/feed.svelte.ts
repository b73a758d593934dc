/**
 * The activity feed: follows, subs, renewals, gifts, KICKs, redemptions, raids, bans, live status and metadata,
 * newest first, restored from main's journal after a restart, each event shown once ([design notes](../../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 2),
 * filtered by type.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import type { FeedItem, FeedKind } from '../../../../shared/views';
import { mergeBy } from '../collections';
import { LoadState, type LoadFlags } from './load-state.svelte';

export interface FeedFilter {
  id: string;
  label: string;
  kinds: readonly FeedKind[] | null;
}

/** The filter chips, in display order; `null` kinds means everything. */
export const FEED_FILTERS: readonly FeedFilter[] = [
  { id: 'all', label: 'All', kinds: null },
  { id: 'follows', label: 'Follows', kinds: ['follow'] },
  { id: 'subs', label: 'Subs', kinds: ['subscription', 'renewal', 'gifted-subs'] },
  { id: 'kicks', label: 'KICKs', kinds: ['kicks'] },
  { id: 'redemptions', label: 'Redemptions', kinds: ['redemption'] },
  // Raids come from Kick's live socket, not the webhooks ([raids](../../../../docs/overlays.md#raids)).
  { id: 'raids', label: 'Raids', kinds: ['raid'] },
  { id: 'bans', label: 'Bans', kinds: ['ban'] },
  { id: 'stream', label: 'Stream', kinds: ['live-status', 'metadata'] },
];

const FEED_MAX = 500;

/** Feed entries and the active filter. */
export class FeedState {
  #api: PanelApi;
  #items = $state.raw<FeedItem[]>([]);
  #filter = $state('all');
  #load = new LoadState();

  readonly visible: FeedItem[] = $derived.by(() => {
    const kinds = FEED_FILTERS.find((f) => f.id === this.#filter)?.kinds ?? null;
    return kinds ? this.#items.filter((i) => kinds.includes(i.kind)) : this.#items;
  });

  readonly counts: Record<string, number> = $derived.by(() => {
    const out: Record<string, number> = {};
    for (const f of FEED_FILTERS) {
      out[f.id] = f.kinds ? this.#items.filter((i) => f.kinds!.includes(i.kind)).length : this.#items.length;
    }
    return out;
  });

  constructor(api: PanelApi) {
    this.#api = api;
  }

  /** Whether the last fetch is under way, has succeeded, or failed and why (read-only to views). */
  get loadState(): LoadFlags {
    return this.#load;
  }

  get items(): readonly FeedItem[] {
    return this.#items;
  }
  get filter(): string {
    return this.#filter;
  }

  setFilter(id: string): void {
    if (FEED_FILTERS.some((f) => f.id === id)) {
      this.#filter = id;
    }
  }

  async loadHistory(): Promise<void> {
    await this.#load.run(
      () => this.#api.feed.history(),
      (items) => this.#merge(items),
    );
  }

  add(item: FeedItem): void {
    this.#merge([item]);
  }

  /** Reflects an accept/reject done from the queue or the feed. */
  setRedemptionStatus(redemptionId: string, status: 'accepted' | 'rejected'): void {
    this.#items = this.#items.map((i) =>
      i.redemption?.id === redemptionId ? { ...i, redemption: { ...i.redemption, status } } : i,
    );
  }

  reset(): void {
    this.#items = [];
    this.#filter = 'all';
    this.#load.reset();
  }

  #merge(incoming: FeedItem[]): void {
    this.#items = mergeBy((i) => i.id, this.#items, incoming)
      .sort((a, b) => b.atMs - a.atMs)
      .slice(0, FEED_MAX);
  }
}

/**
 * The redemption queue: pending redemptions grouped by reward, selection of one, several or all, and
 * accept/reject in one call (main splits it into Kick's batches of 25). Each failure stays on its item with
 * Kick's reason; everything that succeeded leaves the queue. The redeemer's name comes with the listing
 * (main resolves it), so a reload or a second dock shows names, not ids.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { PanelApi } from '../../../../shared/panel-api';
import type { FeedItem, RedemptionGroupView, RedemptionView } from '../../../../shared/views';
import { indexBy, isoTime, setOf } from '../collections';
import { systemClock, type Clock } from '../clock';
import { explainRedemptionFailure } from '../error-text';
import { LoadState, type LoadFlags } from './load-state.svelte';

/** The most ids one call may carry (the contract's cap; main batches them by 25). */
const IDS_PER_CALL = 1000;

export type RedemptionVerb = 'accept' | 'reject';

/** Pending redemptions, the selection and per-item failures. */
export class RedemptionsState {
  #api: PanelApi;
  #groups = $state.raw<RedemptionGroupView[]>([]);
  #selected = new SvelteSet<string>();
  #failures = new SvelteMap<string, string>();
  #busy = $state<RedemptionVerb | null>(null);
  #load: LoadState;
  #onDone: (id: string, status: 'accepted' | 'rejected') => void;
  #reloadSoon: () => void;

  /** Ids that can be acted on (rewards this app manages). */
  readonly actionableIds: string[] = $derived(
    this.#groups.filter((g) => g.reward.can_manage).flatMap((g) => g.redemptions.map((r) => r.id)),
  );
  readonly total = $derived(this.#groups.reduce((n, g) => n + g.redemptions.length, 0));
  readonly allSelected = $derived(
    this.actionableIds.length > 0 && this.actionableIds.every((id) => this.#selected.has(id)),
  );

  /**
   * `onDone`: an accept or reject went through. `reloadSoon`: the queue must be read again (a redemption of a
   * reward it does not show); the app paces it, so a wave of them costs one reload, not one each.
   */
  constructor(
    api: PanelApi,
    onDone: (id: string, status: 'accepted' | 'rejected') => void = () => {},
    options: { clock?: Clock; reloadSoon?: () => void } = {},
  ) {
    this.#api = api;
    this.#onDone = onDone;
    this.#load = new LoadState(options.clock ?? systemClock);
    this.#reloadSoon = options.reloadSoon ?? (() => void this.load());
  }
  /** Whether the last fetch is under way, has succeeded, or failed and why (read-only to views). */
  get loadState(): LoadFlags {
    return this.#load;
  }

  get groups(): readonly RedemptionGroupView[] {
    return this.#groups;
  }
  get selectedCount(): number {
    return this.#selected.size;
  }
  get busy(): RedemptionVerb | null {
    return this.#busy;
  }

  isSelected(id: string): boolean {
    return this.#selected.has(id);
  }
  failureFor(id: string): string | undefined {
    return this.#failures.get(id);
  }
  /** The viewer's name, or a plain stand-in when neither main nor Kick knew it. */
  nameOf(redemption: RedemptionView): string {
    return redemption.redeemerName ?? `viewer #${redemption.redeemer.user_id}`;
  }

  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.redemptions.list({ status: 'pending' }),
      (groups) => {
        this.#groups = groups.filter((g) => g.redemptions.length > 0);
        const present = setOf(this.#groups.flatMap((g) => g.redemptions.map((r) => r.id)));
        for (const id of [...this.#selected]) {
          if (!present.has(id)) {
            this.#selected.delete(id);
          }
        }
      },
    );
  }

  toggle(id: string): void {
    if (this.#selected.has(id)) {
      this.#selected.delete(id);
    } else if (this.actionableIds.includes(id)) {
      this.#selected.add(id);
    }
  }

  /** Selects a reward's redemptions, or clears them when all are selected. */
  toggleGroup(rewardId: string): void {
    const group = this.#groups.find((g) => g.reward.id === rewardId);
    if (!group?.reward.can_manage) {
      return;
    }
    const ids = group.redemptions.map((r) => r.id);
    const all = ids.every((id) => this.#selected.has(id));
    for (const id of ids) {
      if (all) {
        this.#selected.delete(id);
      } else {
        this.#selected.add(id);
      }
    }
  }

  groupSelected(rewardId: string): boolean {
    const group = this.#groups.find((g) => g.reward.id === rewardId);
    return !!group && group.redemptions.length > 0 && group.redemptions.every((r) => this.#selected.has(r.id));
  }

  selectAll(): void {
    for (const id of this.actionableIds) {
      this.#selected.add(id);
    }
  }

  clearSelection(): void {
    this.#selected.clear();
  }

  /** Accepts or rejects `ids` (default: the selection). */
  async act(verb: RedemptionVerb, ids: string[] = [...this.#selected]): Promise<void> {
    if (ids.length === 0 || this.#busy) {
      return;
    }
    this.#busy = verb;
    this.#load.clearError();
    for (let i = 0; i < ids.length; i += IDS_PER_CALL) {
      const chunk = ids.slice(i, i + IDS_PER_CALL);
      const result =
        verb === 'accept'
          ? await this.#api.redemptions.accept({ ids: chunk })
          : await this.#api.redemptions.reject({ ids: chunk });
      if (!result.ok) {
        this.#load.fail(result.error);
        break;
      }
      const failed = indexBy(
        result.value,
        (f) => f.id,
        (f) => f.reason,
      );
      for (const id of chunk) {
        const reason = failed.get(id);
        if (reason) {
          this.#failures.set(id, explainRedemptionFailure(reason));
        } else {
          this.#failures.delete(id);
          this.#onDone(id, verb === 'accept' ? 'accepted' : 'rejected');
        }
        this.#selected.delete(id);
      }
      this.#remove(chunk.filter((id) => !failed.has(id)));
    }
    this.#busy = null;
  }

  /** A redemption event from the feed: new pending ones join their reward's group. */
  onEvent(item: FeedItem): void {
    const r = item.redemption;
    if (!r) {
      return;
    }
    if (r.status !== 'pending') {
      this.#remove([r.id]);
      return;
    }
    if (this.#groups.some((g) => g.redemptions.some((x) => x.id === r.id))) {
      return;
    }
    const group = this.#groups.find((g) => g.reward.id === r.rewardId);
    if (!group) {
      this.#reloadSoon();
      return;
    }
    const redemption: RedemptionView = {
      id: r.id,
      redeemed_at: isoTime(item.atMs),
      redeemer: { user_id: item.userId ?? 0 },
      status: 'pending',
      user_input: r.userInput,
      redeemerName: item.username,
    };
    this.#groups = this.#groups.map((g) => (g === group ? { ...g, redemptions: [...g.redemptions, redemption] } : g));
  }

  reset(): void {
    this.#groups = [];
    this.#selected.clear();
    this.#failures.clear();
    this.#busy = null;
    this.#load.reset();
  }

  #remove(ids: string[]): void {
    if (ids.length === 0) {
      return;
    }
    const gone = setOf(ids);
    this.#groups = this.#groups
      .map((g) => ({ ...g, redemptions: g.redemptions.filter((r) => !gone.has(r.id)) }))
      .filter((g) => g.redemptions.length > 0);
  }
}

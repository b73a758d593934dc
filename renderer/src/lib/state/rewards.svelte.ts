/**
 * Channel rewards: list, create, edit, pause/resume, enable/disable and delete (after one confirm).
 * Rewards another app created come back with `canManage: false` and stay read-only here, since Kick only
 * lets the creating app change them.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { ErrorCode, Result } from '../../../../shared/errors';
import type { PanelApi } from '../../../../shared/panel-api';
import type { KickReward } from '../../../../shared/kick/resources';
import { LIMITS } from '../../../../shared/limits';
import { systemClock, type Clock } from '../clock';
import { explainError, type ShownError } from '../error-text';
import { endedBy, HeldError, type GoneCause } from './held-error.svelte';
import { LoadState, type LoadFlags } from './load-state.svelte';
import { RewardFormState } from './reward-form.svelte';

export type ManagedReward = KickReward & { canManage: boolean };

/** The reward list and the open form. */
export class RewardsState {
  #api: PanelApi;
  #rewards = $state.raw<ManagedReward[]>([]);
  #load: LoadState;
  #form = $state.raw<RewardFormState | null>(null);
  #saving = $state(false);
  #formError = new HeldError();
  #rowError = new SvelteMap<string, { shown: ShownError; code: ErrorCode }>();
  #rowBusy = new SvelteMap<string, boolean>();
  #confirmDelete = $state<string | null>(null);

  readonly canCreate = $derived(this.#rewards.length < LIMITS.rewardsPerChannelMax);

  constructor(api: PanelApi, clock: Clock = systemClock) {
    this.#api = api;
    this.#load = new LoadState(clock);
  }

  /** Whether the last fetch is under way, has succeeded, or failed and why (read-only to views). */
  get loadState(): LoadFlags {
    return this.#load;
  }

  get rewards(): readonly ManagedReward[] {
    return this.#rewards;
  }
  get form(): RewardFormState | null {
    return this.#form;
  }
  get saving(): boolean {
    return this.#saving;
  }
  get formError(): ShownError | null {
    return this.#formError.shown;
  }
  get confirmingDelete(): string | null {
    return this.#confirmDelete;
  }
  rowError(id: string): ShownError | undefined {
    return this.#rowError.get(id)?.shown;
  }

  /** A form or row error whose cause `cause` ended goes (held-error.svelte.ts). */
  clearIfEnded(cause: GoneCause): void {
    this.#formError.clearIfEnded(cause);
    for (const [id, held] of this.#rowError) {
      if (endedBy(held.code, cause)) {
        this.#rowError.delete(id);
      }
    }
  }
  rowBusy(id: string): boolean {
    return this.#rowBusy.get(id) ?? false;
  }

  /**
   * Whether the list as shown has this reward under this title. A redemption of one it lacks means the
   * reward was created or renamed since the list was read (view-refresh.ts reloads it then).
   */
  knows(rewardId: string, title: string): boolean {
    return this.#load.loaded && this.#rewards.some((r) => r.id === rewardId && r.title === title);
  }

  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.rewards.list(),
      (rewards) => {
        this.#rewards = rewards;
      },
    );
  }

  startCreate(): void {
    this.#formError.clear();
    this.#form = new RewardFormState();
  }

  startEdit(id: string): void {
    const reward = this.#rewards.find((r) => r.id === id);
    if (reward?.canManage) {
      this.#formError.clear();
      this.#form = new RewardFormState(reward);
    }
  }

  cancelForm(): void {
    this.#form = null;
    this.#formError.clear();
  }

  /** Creates or updates from the open form; the form closes on success. */
  async save(): Promise<void> {
    const form = this.#form;
    if (!form || !form.valid || this.#saving) {
      return;
    }
    this.#saving = true;
    this.#formError.clear();
    let result: Result<KickReward>;
    if (form.original) {
      const patch = form.patch();
      if (Object.keys(patch).length === 0) {
        this.#saving = false;
        this.#form = null;
        return;
      }
      result = await this.#api.rewards.update({ id: form.original.id, patch });
    } else {
      result = await this.#api.rewards.create(form.fields());
    }
    this.#saving = false;
    if (!result.ok) {
      // A refused field is marked beside it by the form; anything else in plain words.
      const refused = form.refuse(result.error);
      if (refused) {
        this.#formError.show(refused);
      } else {
        this.#formError.fail(result.error);
      }
      return;
    }
    this.#upsert(result.value);
    this.#form = null;
  }

  setPaused(id: string, paused: boolean): Promise<void> {
    return this.#patchRow(id, { isPaused: paused });
  }

  setEnabled(id: string, enabled: boolean): Promise<void> {
    return this.#patchRow(id, { isEnabled: enabled });
  }

  requestDelete(id: string): void {
    this.#confirmDelete = id;
  }

  cancelDelete(): void {
    this.#confirmDelete = null;
  }

  async confirmDelete(): Promise<void> {
    const id = this.#confirmDelete;
    if (!id) {
      return;
    }
    this.#confirmDelete = null;
    this.#rowBusy.set(id, true);
    const result = await this.#api.rewards.delete({ id });
    this.#rowBusy.delete(id);
    if (!result.ok) {
      this.#rowError.set(id, { shown: explainError(result.error), code: result.error.code });
      return;
    }
    this.#rowError.delete(id);
    this.#rewards = this.#rewards.filter((r) => r.id !== id);
  }

  reset(): void {
    this.#rewards = [];
    this.#load.reset();
    this.#form = null;
    this.#saving = false;
    this.#formError.clear();
    this.#rowError.clear();
    this.#rowBusy.clear();
    this.#confirmDelete = null;
  }

  async #patchRow(id: string, patch: { isPaused?: boolean; isEnabled?: boolean }): Promise<void> {
    this.#rowBusy.set(id, true);
    const result = await this.#api.rewards.update({ id, patch });
    this.#rowBusy.delete(id);
    if (!result.ok) {
      this.#rowError.set(id, { shown: explainError(result.error), code: result.error.code });
      return;
    }
    this.#rowError.delete(id);
    this.#upsert(result.value);
  }

  #upsert(reward: KickReward): void {
    const i = this.#rewards.findIndex((r) => r.id === reward.id);
    const next = { ...reward, canManage: true };
    this.#rewards = i < 0 ? [...this.#rewards, next] : this.#rewards.map((r, j) => (j === i ? next : r));
  }
}

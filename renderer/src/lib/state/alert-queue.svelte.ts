/**
 * The alert box's queue as the panel controls it (docs/overlays.md#controlling-the-alert-queue): paused or
 * playing, the alert on screen, how many wait, the alerts dropped as too old, and the controls (Pause,
 * Skip, Clear, Replay from the activity feed). Main pushes the queue as it changes (`alerts:changed`); each
 * control answers with it too, so the view follows at once in the panel that pressed the button.
 */
import type { AlertQueueView } from '../../../../shared/overlays';
import type { PanelApi } from '../../../../shared/panel-api';
import type { Result } from '../../../../shared/errors';
import { SvelteMap } from 'svelte/reactivity';
import { explainError } from '../error-text';
import { LoadState, type LoadFlags } from './load-state.svelte';

export type AlertControl = 'pause' | 'skip' | 'clear' | 'dismiss';

/** What a feed entry's "Replay alert" did: queued, or why not. */
export type ReplayStatus = { ok: true } | { ok: false; text: string };

export class AlertQueueState {
  #api: PanelApi;
  #view = $state.raw<AlertQueueView | null>(null);
  #busy = $state<AlertControl | null>(null);
  #load = new LoadState();
  #replays = new SvelteMap<string, ReplayStatus>();

  constructor(api: PanelApi) {
    this.#api = api;
  }

  /** The queue as main last told it; null until loaded. */
  get view(): AlertQueueView | null {
    return this.#view;
  }
  /** The control whose answer is awaited. */
  get busy(): AlertControl | null {
    return this.#busy;
  }
  /** The first load, and any control that failed, with why. */
  get loadState(): LoadFlags {
    return this.#load;
  }
  /** What "Replay alert" on this feed entry did, if it was pressed. */
  replayStatus(feedItemId: string): ReplayStatus | undefined {
    return this.#replays.get(feedItemId);
  }

  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.alerts.status(),
      (view) => (this.#view = view),
    );
  }

  /** Main's push. */
  apply(view: AlertQueueView): void {
    this.#view = view;
  }

  togglePause(): Promise<void> {
    return this.#control('pause', () => this.#api.alerts.pause({ paused: !(this.#view?.paused ?? false) }));
  }

  /** Skips the alert on screen as the streamer saw it: not the next one, if it ended meanwhile. */
  skip(): Promise<void> {
    return this.#control('skip', () => this.#api.alerts.skip({ id: this.#view?.current?.id }));
  }

  clear(): Promise<void> {
    return this.#control('clear', () => this.#api.alerts.clear());
  }

  dismissTooOld(): Promise<void> {
    return this.#control('dismiss', () => this.#api.alerts.dismissTooOld());
  }

  async replay(feedItemId: string): Promise<void> {
    this.#replays.delete(feedItemId);
    const result = await this.#api.alerts.replay({ feedItemId });
    if (result.ok) {
      this.#view = result.value;
      this.#replays.set(feedItemId, { ok: true });
    } else {
      this.#replays.set(feedItemId, { ok: false, text: explainError(result.error).text });
    }
  }

  reset(): void {
    this.#view = null;
    this.#busy = null;
    this.#load.reset();
    this.#replays.clear();
  }

  async #control(which: AlertControl, call: () => Promise<Result<AlertQueueView>>): Promise<void> {
    if (this.#busy) {
      return;
    }
    this.#busy = which;
    const result = await call();
    this.#busy = null;
    if (result.ok) {
      this.#view = result.value;
      this.#load.clearError();
    } else {
      this.#load.fail(result.error);
    }
  }
}

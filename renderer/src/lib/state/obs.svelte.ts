/**
 * OBS as the panel sees it: one view, read with `obs:status` at start (and after a reconnect or a rebuilt
 * app), then replaced by each `obs:changed` main pushes ([connection states](../../../../docs/obs.md#connection-states)).
 * What OBS last reported is kept after the connection drops, and then shown "as of" when it was read, as
 * it is when the readings stop moving while connected; nothing old is shown as if it were now.
 *
 * The actions (switch scene, show or hide a source, start or stop an output) run one at a time; a failure
 * is kept in OBS's words until the next action or the next connection, and changes nothing shown: what OBS
 * did is what the next `obs:changed` says.
 */
import type { Result } from '../../../../shared/errors';
import type {
  ObsConnectionSave,
  ObsScenesView,
  ObsStatsView,
  ObsView,
  StreamWarningView,
} from '../../../../shared/obs';
import type { PanelApi } from '../../../../shared/panel-api';
import { systemClock, type Clock } from '../clock';
import type { ShownError } from '../error-text';
import { explainObsError } from '../obs-words';
import { LoadState, type LoadFlags } from './load-state.svelte';

/** Readings older than this while connected have stopped moving: the panel says how old they are. */
export const OBS_STATS_STALE_MS = 15_000;
/**
 * How often the panel moves its clock on: each second, so the times on air count up by one between OBS's
 * readings and the retry countdown only goes down.
 */
export const OBS_TICK_MS = 1_000;

export type ObsOutputAction = { output: 'stream' | 'record'; action: 'start' | 'stop' };

/** The OBS view and the actions on it. */
export class ObsState {
  #api: PanelApi;
  #clock: Clock;
  #view = $state.raw<ObsView | null>(null);
  #load: LoadState;
  #now = $state(0);
  /** The action under way (`scene`, `source:<id>`, `stream:start`…), or null. */
  #pending = $state<string | null>(null);
  #actionError = $state.raw<ShownError | null>(null);

  readonly connected: boolean = $derived(this.#view?.connection.kind === 'connected');
  /**
   * When the readings shown were taken, while they are not current (the connection dropped, or they
   * stopped moving); null while they are current or there are none.
   */
  readonly statsAsOf: number | null = $derived.by(() => {
    const stats = this.#view?.stats;
    if (!stats) {
      return null;
    }
    return !this.connected || this.#now - stats.at > OBS_STATS_STALE_MS ? stats.at : null;
  });

  constructor(api: PanelApi, clock: Clock = systemClock) {
    this.#api = api;
    this.#clock = clock;
    this.#now = clock.now();
    this.#load = new LoadState(clock);
  }

  get view(): ObsView | null {
    return this.#view;
  }
  get stats(): ObsStatsView | null {
    return this.#view?.stats ?? null;
  }
  get scenes(): ObsScenesView | null {
    return this.#view?.scenes ?? null;
  }
  /**
   * How long an output has run now: its last reading plus the time since that reading, while it runs and
   * the readings are current; as read otherwise ([stream health](../../../../docs/obs.md#obs-in-the-panel)).
   */
  durationOf(output: 'stream' | 'record'): number {
    const stats = this.#view?.stats;
    if (!stats) {
      return 0;
    }
    const read = stats[output];
    const moving = read.active && !read.paused && this.connected && this.statsAsOf === null;
    return moving ? read.durationMs + Math.max(0, this.#now - stats.at) : read.durationMs;
  }
  get warnings(): readonly StreamWarningView[] {
    return this.#view?.warnings ?? [];
  }
  /** The panel's own clock reading, moved on by {@link tick}. */
  get now(): number {
    return this.#now;
  }
  get loadState(): LoadFlags {
    return this.#load;
  }
  get pending(): string | null {
    return this.#pending;
  }
  get actionError(): ShownError | null {
    return this.#actionError;
  }

  /** What main pushed (`obs:changed`) or answered. */
  apply(view: ObsView): void {
    if (view.connection.kind !== 'connected') {
      // A failure from before no longer says anything about what can be done now.
      this.#actionError = null;
    }
    this.#view = view;
    this.#now = this.#clock.now();
  }

  /** Reads the view from main. */
  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.obs.status(),
      (view) => this.apply(view),
    );
  }

  /** Keeps the readings' age current; returns the stop. */
  startTicking(): () => void {
    return this.#clock.setInterval(() => (this.#now = this.#clock.now()), OBS_TICK_MS);
  }

  setScene(sceneName: string): Promise<boolean> {
    return this.#act('scene', () => this.#api.obs.setScene({ sceneName }));
  }

  setSourceVisible(sceneName: string, sceneItemId: number, enabled: boolean): Promise<boolean> {
    return this.#act(`source:${sceneItemId}`, () =>
      this.#api.obs.setSourceVisible({ sceneName, sceneItemId, enabled }),
    );
  }

  output(what: ObsOutputAction): Promise<boolean> {
    return this.#act(`${what.output}:${what.action}`, () => this.#api.obs.output(what));
  }

  /** Saves the connection; the answer is the view as it is after, applied here. */
  async saveConnection(save: ObsConnectionSave): Promise<Result<ObsView>> {
    const result = await this.#api.obs.saveConnection(save);
    if (result.ok) {
      this.apply(result.value);
    }
    return result;
  }

  clearActionError(): void {
    this.#actionError = null;
  }

  async #act(key: string, call: () => Promise<Result<null>>): Promise<boolean> {
    if (this.#pending !== null) {
      return false;
    }
    this.#pending = key;
    this.#actionError = null;
    const result = await call();
    this.#pending = null;
    if (!result.ok) {
      this.#actionError = explainObsError(result.error);
      return false;
    }
    return true;
  }

  reset(): void {
    this.#view = null;
    this.#load.reset();
    this.#pending = null;
    this.#actionError = null;
  }
}

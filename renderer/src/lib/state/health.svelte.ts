/**
 * Connection health: tunnel and webhook URL, subscriptions per event type, delivery lag, counters of
 * accepted, rejected and duplicate deliveries, and the secret store's state. Pushed by main on
 * `health:changed`; a refresh asks for a fresh snapshot.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import type { HealthView } from '../../../../shared/views';
import { lagBannerText } from '../event-reach';
import { LoadState, type LoadFlags } from './load-state.svelte';

/** The health view and its refresh. */
export class HealthState {
  #api: PanelApi;
  #health = $state.raw<HealthView | null>(null);
  #load = new LoadState();

  /**
   * Whether events can reach Greenroom: through an up tunnel on Kick; on the sandbox, which delivers to the
   * local receiver directly, the tunnel is off by design and that is fine.
   */
  readonly tunnelOk: boolean = $derived(
    this.#health?.tunnel.state === 'up' || (this.#health?.mode === 'sandbox' && this.#health.tunnel.state === 'off'),
  );
  readonly tunnelText: string = $derived.by(() => {
    const t = this.#health?.tunnel;
    switch (t?.state) {
      case undefined:
        return 'Unknown';
      case 'off':
        return this.#health?.mode === 'sandbox'
          ? 'Yes: the sandbox delivers events to Greenroom directly, no tunnel needed'
          : 'No: the tunnel is off, so events cannot reach Greenroom';
      case 'connecting':
        return `Not yet: Greenroom is opening its tunnel (try ${t.attempt})…`;
      case 'up':
        return t.reachable === false
          ? 'Connecting: the tunnel is up, but Kick cannot reach it yet'
          : 'Yes: Kick can send events to Greenroom';
      case 'down':
        return `No: the tunnel is down (${t.reason}); trying again in ${Math.ceil(t.retryInMs / 1000)} s`;
    }
  });
  /** "Kick is delaying events by N min" while Kick holds events back. */
  readonly lagText: string | null = $derived(lagBannerText(this.#health));
  /**
   * What the Health tab's badge counts. The keychain counts only on Kick: in sandbox mode no Kick sign-in is
   * saved, so an unprotected store there puts nothing at risk.
   */
  readonly problems: number = $derived(
    (this.#health?.subscriptions.filter((s) => s.state !== 'active').length ?? 0) +
      (this.#health && !this.tunnelOk ? 1 : 0) +
      (this.#health?.secretStore.degraded && this.#health.mode === 'kick' ? 1 : 0),
  );

  constructor(api: PanelApi) {
    this.#api = api;
  }

  /** Whether the last fetch is under way, has succeeded, or failed and why (read-only to views). */
  get loadState(): LoadFlags {
    return this.#load;
  }

  get health(): HealthView | null {
    return this.#health;
  }

  apply(health: HealthView): void {
    this.#health = health;
  }

  async refresh(): Promise<void> {
    await this.#load.run(
      () => this.#api.health.snapshot(),
      (health) => {
        this.#health = health;
      },
    );
  }

  reset(): void {
    this.#health = null;
    this.#load.reset();
  }
}

/**
 * First-run setup (design.md item 13): create the Kick developer app, paste the exact redirect and webhook
 * URLs, enter the credentials, check sign-in, then wait for a test delivery. Each step is checked against
 * what main reports rather than taken on trust.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import type { HealthState } from './health.svelte';
import type { SessionState } from './session.svelte';
import type { SettingsState } from './settings.svelte';

export const WIZARD_STEPS = [
  { id: 'app', label: 'Create the app' },
  { id: 'urls', label: 'Paste the URLs' },
  { id: 'credentials', label: 'Enter credentials' },
  { id: 'sign-in', label: 'Check sign-in' },
  { id: 'delivery', label: 'Test delivery' },
] as const;

export type WizardStep = (typeof WIZARD_STEPS)[number]['id'];

/** Kick's developer settings page, where the app is created. */
export const KICK_DEVELOPER_URL = 'https://kick.com/settings/developer';

/** The wizard's position and the delivery check. */
export class SetupWizardState {
  #api: PanelApi;
  #session: SessionState;
  #settings: SettingsState;
  #health: HealthState;
  #open = $state(false);
  #index = $state(0);
  #baseline = $state<number | null>(null);

  readonly step: WizardStep = $derived(WIZARD_STEPS[this.#index]?.id ?? 'app');
  readonly credentialsSaved = $derived.by(
    () => !!this.#settings.settings?.clientId && !!this.#settings.settings?.hasClientSecret,
  );
  readonly signedIn = $derived.by(() => this.#session.signedIn);
  /** A delivery was accepted since the wizard started waiting. */
  readonly deliveryReceived = $derived.by(
    () => this.#baseline !== null && (this.#health.health?.counters.accepted ?? 0) > this.#baseline,
  );
  /** Whether the current step's condition holds. */
  readonly stepDone = $derived.by(() => {
    switch (this.step) {
      case 'credentials':
        return this.credentialsSaved;
      case 'sign-in':
        return this.signedIn;
      case 'delivery':
        return this.deliveryReceived;
      default:
        return true;
    }
  });

  constructor(api: PanelApi, session: SessionState, settings: SettingsState, health: HealthState) {
    this.#api = api;
    this.#session = session;
    this.#settings = settings;
    this.#health = health;
  }

  get open(): boolean {
    return this.#open;
  }
  get index(): number {
    return this.#index;
  }

  start(): void {
    this.#open = true;
    this.#index = 0;
    this.#baseline = null;
  }

  close(): void {
    this.#open = false;
  }

  next(): void {
    this.goTo(Math.min(WIZARD_STEPS.length - 1, this.#index + 1));
  }

  back(): void {
    this.goTo(Math.max(0, this.#index - 1));
  }

  goTo(index: number): void {
    this.#index = index;
    if (WIZARD_STEPS[index]?.id === 'delivery' && this.#baseline === null) {
      this.#baseline = this.#health.health?.counters.accepted ?? 0;
    }
  }

  openDeveloperPage(): void {
    this.#api.app.openExternal({ url: KICK_DEVELOPER_URL });
  }

  reset(): void {
    this.#open = false;
    this.#index = 0;
    this.#baseline = null;
  }
}

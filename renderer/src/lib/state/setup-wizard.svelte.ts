/**
 * The setup guide ([design notes](../../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 13): create the Kick developer app, paste the exact redirect and webhook
 * URLs, enter the credentials, check sign-in, then wait for a test delivery. Each step is checked against
 * what main reports rather than taken on trust.
 *
 * It opens by itself on first run (until the streamer finishes or closes it: `setupGuideDone`), as a dialog.
 * On the embedded sandbox there is no tunnel and no webhook URL yet (the sandbox delivers straight to
 * Greenroom), so step 2 is the sandbox tour instead; saving credentials switches Greenroom to Kick in place,
 * and the guide carries on where it was.
 */
import type { SettingsView } from '../../../../shared/views';
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

/** Step 2's name on the embedded sandbox, where there is nothing to paste yet. */
export const SANDBOX_TOUR_LABEL = 'Try the sandbox';

/** Kick's developer settings page, where the app is created. */
export const KICK_DEVELOPER_URL = 'https://kick.com/settings/developer';

/** The wizard's position and the delivery check. */
export class SetupWizardState {
  #session: SessionState;
  #settings: SettingsState;
  #health: HealthState;
  #open = $state(false);
  #index = $state(0);
  #baseline = $state<number | null>(null);
  /** Opened by itself once in this panel: closing it must not bring it back on the next reload. */
  #autoOpened = false;

  readonly step: WizardStep = $derived(WIZARD_STEPS[this.#index]?.id ?? 'app');
  /** Running on the embedded sandbox (no Kick app yet). */
  readonly onSandbox = $derived.by(() => this.#session.mode === 'sandbox');
  /** The steps with the names this mode gives them. */
  readonly steps = $derived.by(() =>
    WIZARD_STEPS.map((s) => (s.id === 'urls' && this.onSandbox ? { ...s, label: SANDBOX_TOUR_LABEL } : s)),
  );
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

  constructor(session: SessionState, settings: SettingsState, health: HealthState) {
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

  /** Opens the guide at its first step ("Run the setup guide"). */
  start(): void {
    this.#open = true;
    this.#index = 0;
    this.#baseline = null;
  }

  /** First run: opens the guide by itself until the streamer has finished or closed it once. */
  openOnFirstRun(settings: SettingsView): void {
    if (!settings.setupGuideDone && !this.#open && !this.#autoOpened) {
      this.#autoOpened = true;
      this.start();
    }
  }

  /** Closes the guide; from now on it opens only when asked. */
  close(): void {
    this.#open = false;
    void this.#settings.markSetupGuideDone();
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

  reset(): void {
    this.#open = false;
    this.#index = 0;
    this.#baseline = null;
    this.#autoOpened = false;
  }
}

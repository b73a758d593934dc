/**
 * The setup guide ([design notes](../../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 13): create the Kick developer app, paste the exact redirect and webhook
 * URLs, enter the credentials, check sign-in, then wait for a test delivery. Each step is checked against
 * what main reports rather than taken on trust.
 *
 * It opens by itself on first run (until the streamer finishes or closes it: `setupGuideDone`), as a dialog.
 * On the embedded sandbox the sandbox has its own app and delivers straight to Greenroom, so the guide starts
 * with the sandbox tour, sign-in and a delivery, and ends with creating the Kick app and its credentials;
 * saving credentials switches Greenroom to Kick in place, and the guide carries on where it was.
 */
import type { SettingsView } from '../../../../shared/views';
import type { HealthState } from './health.svelte';
import type { SessionState } from './session.svelte';
import type { SettingsState } from './settings.svelte';

/** Every step the guide knows, with its name. */
export const STEP_LABELS = {
  tour: 'Try the sandbox',
  app: 'Create the app',
  urls: 'Paste the URLs',
  credentials: 'Enter credentials',
  'sign-in': 'Check sign-in',
  delivery: 'Test delivery',
} as const;

export type WizardStep = keyof typeof STEP_LABELS;

/** On Kick: the app comes first, since nothing works without it. */
export const KICK_STEPS: readonly WizardStep[] = ['app', 'urls', 'credentials', 'sign-in', 'delivery'];

/**
 * On the embedded sandbox the sandbox already has an app, so the guide starts at what works now (the tour,
 * sign-in, a delivery) and ends with what going live needs. The redirect URL to paste is shown with the app
 * step; the webhook URL only exists once Greenroom talks to Kick.
 */
export const SANDBOX_STEPS: readonly WizardStep[] = ['tour', 'sign-in', 'delivery', 'app', 'credentials'];

/** Kick's developer settings page, where the app is created. */
export const KICK_DEVELOPER_URL = 'https://kick.com/settings/developer';

/** The wizard's position and the delivery check. */
export class SetupWizardState {
  #session: SessionState;
  #settings: SettingsState;
  #health: HealthState;
  #open = $state(false);
  /** The current step by name, so a switch from the sandbox to Kick keeps the streamer where they were. */
  #current = $state<WizardStep | null>(null);
  #baseline = $state<number | null>(null);
  /** Opened by itself once in this panel: closing it must not bring it back on the next reload. */
  #autoOpened = false;

  /** Running on the embedded sandbox (no Kick app yet). */
  readonly onSandbox = $derived.by(() => this.#session.mode === 'sandbox');
  /** The steps, in the order this mode takes them. */
  readonly order: readonly WizardStep[] = $derived(this.onSandbox ? SANDBOX_STEPS : KICK_STEPS);
  readonly steps = $derived(this.order.map((id) => ({ id, label: STEP_LABELS[id] })));
  readonly step: WizardStep = $derived(
    this.#current !== null && this.order.includes(this.#current) ? this.#current : this.order[0]!,
  );
  readonly index: number = $derived(this.order.indexOf(this.step));
  readonly isLast: boolean = $derived(this.index === this.order.length - 1);
  readonly credentialsSaved = $derived.by(
    () => !!this.#settings.settings?.clientId && !!this.#settings.settings?.hasClientSecret,
  );
  readonly signedIn = $derived.by(() => this.#session.signedIn);
  /**
   * A signed delivery reached Greenroom since the wizard started waiting: kept, or recognised as a copy. With
   * Kick's live chat connection on, a chat line's webhook comes after the socket brought the line, so it is a
   * copy, yet it proves webhooks arrive just the same.
   */
  readonly deliveryReceived = $derived.by(() => this.#baseline !== null && this.#arrived() > this.#baseline);

  #arrived(): number {
    const counters = this.#health.health?.counters;
    return (counters?.accepted ?? 0) + (counters?.duplicates ?? 0);
  }
  /**
   * Why Next is disabled, in the streamer's words, or null when it is not: shown beside the button, so a
   * greyed-out Next never leaves the streamer guessing.
   */
  readonly nextBlockedBy: string | null = $derived.by(() => {
    if (this.isLast || this.stepDone) {
      return null;
    }
    switch (this.step) {
      case 'credentials':
        return 'Save the Client ID and Client Secret first.';
      case 'sign-in':
        return 'Sign in first: choose Check sign-in and approve in your browser.';
      case 'delivery':
        return 'Waiting for a test delivery; Next opens once one arrives.';
      default:
        return null;
    }
  });
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

  /** Opens the guide at its first step ("Run the setup guide"). */
  start(): void {
    this.#open = true;
    this.#current = null;
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
    this.goTo(Math.min(this.order.length - 1, this.index + 1));
  }

  back(): void {
    this.goTo(Math.max(0, this.index - 1));
  }

  goTo(index: number): void {
    const id = this.order[index];
    if (id === undefined) {
      return;
    }
    this.#current = id;
    if (id === 'delivery' && this.#baseline === null) {
      this.#baseline = this.#arrived();
    }
  }

  reset(): void {
    this.#open = false;
    this.#current = null;
    this.#baseline = null;
    this.#autoOpened = false;
  }
}

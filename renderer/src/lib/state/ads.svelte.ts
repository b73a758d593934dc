/**
 * Ads: status (enrolled, remaining breaks, limits, recent breaks), enroll, and running a break of 7–300 s
 * with a countdown driven by the injected clock. Conflict, Ratelimited and BadRequest come back explained
 * in plain words.
 */
import type { ErrorValue } from '../../../../shared/errors';
import type { PanelApi } from '../../../../shared/panel-api';
import type { KickAdBreakStatus } from '../../../../shared/kick/resources';
import { LIMITS } from '../../../../shared/limits';
import { systemClock, type Clock } from '../clock';
import { explainAdError } from '../error-text';
import { LoadState } from './load-state.svelte';

export interface RunningBreak {
  id: string;
  seconds: number;
  endsAtMs: number;
}

/** Null when `seconds` is a length Kick accepts, else the reason. */
export function validateAdSeconds(seconds: number | null): string | null {
  if (
    seconds === null ||
    !Number.isInteger(seconds) ||
    seconds < LIMITS.adBreakSecondsMin ||
    seconds > LIMITS.adBreakSecondsMax
  ) {
    return `Length: a whole number of seconds from ${LIMITS.adBreakSecondsMin} to ${LIMITS.adBreakSecondsMax}.`;
  }
  return null;
}

/** Ad status, enrolment and the running break. */
export class AdsState {
  #api: PanelApi;
  #clock: Clock;
  #status = $state.raw<KickAdBreakStatus | null>(null);
  #load = new LoadState();
  #actionError = $state.raw<ErrorValue | null>(null);
  #busy = $state<'enroll' | 'run' | null>(null);
  #running = $state.raw<RunningBreak | null>(null);
  #now = $state(0);
  #stopTicking: (() => void) | null = null;

  /** Bound to the length input. */
  seconds = $state<number | null>(30);

  readonly secondsError = $derived(validateAdSeconds(this.seconds));
  readonly remainingSeconds = $derived(
    this.#running ? Math.max(0, Math.ceil((this.#running.endsAtMs - this.#now) / 1000)) : 0,
  );
  readonly explanation = $derived(this.#actionError ? explainAdError(this.#actionError) : null);

  constructor(api: PanelApi, clock: Clock = systemClock) {
    this.#api = api;
    this.#clock = clock;
    this.#now = clock.now();
  }

  get status(): KickAdBreakStatus | null {
    return this.#status;
  }
  get loading(): boolean {
    return this.#load.loading;
  }
  get loaded(): boolean {
    return this.#load.loaded;
  }
  get error(): string | null {
    return this.#load.error;
  }
  get busy(): 'enroll' | 'run' | null {
    return this.#busy;
  }
  get running(): RunningBreak | null {
    return this.#running;
  }

  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.ads.status(),
      (status) => {
        this.#status = status;
      },
    );
  }

  async enroll(): Promise<void> {
    this.#busy = 'enroll';
    this.#actionError = null;
    const result = await this.#api.ads.enroll();
    this.#busy = null;
    if (!result.ok) {
      this.#actionError = result.error;
      return;
    }
    await this.load();
  }

  /** Starts an ad break of `seconds` and counts it down. */
  async run(): Promise<void> {
    const seconds = this.seconds;
    if (seconds === null || this.secondsError || this.#busy) {
      return;
    }
    this.#busy = 'run';
    this.#actionError = null;
    const result = await this.#api.ads.run({ seconds });
    this.#busy = null;
    if (!result.ok) {
      this.#actionError = result.error;
      return;
    }
    this.#now = this.#clock.now();
    this.#running = { id: result.value.id, seconds, endsAtMs: this.#now + seconds * 1000 };
    if (this.#status) {
      this.#status = { ...this.#status, remaining_ad_breaks: result.value.remaining_ad_breaks };
    }
    this.#stopTicking?.();
    this.#stopTicking = this.#clock.setInterval(() => this.#tick(), 250);
  }

  dismissError(): void {
    this.#actionError = null;
  }

  /** Stops the countdown timer (the panel is closing). */
  dispose(): void {
    this.#stopTicking?.();
    this.#stopTicking = null;
  }

  reset(): void {
    this.dispose();
    this.#status = null;
    this.#load.reset();
    this.#actionError = null;
    this.#busy = null;
    this.#running = null;
    this.seconds = 30;
  }

  #tick(): void {
    this.#now = this.#clock.now();
    if (this.#running && this.#now >= this.#running.endsAtMs) {
      this.#running = null;
      this.dispose();
      void this.load();
    }
  }
}

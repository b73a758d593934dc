/**
 * Ads: status (enrolled, remaining breaks, limits, recent breaks), enroll, and running a break of 7–300 s.
 * The running break and its countdown come from Kick's status (`ad_breaks[].created_at` plus its length),
 * so a reload or a second panel shows the same countdown, and a Run refused because a break is running
 * reloads the status to show how long it has left. Refusals are explained in plain words, with Kick's own
 * answer behind "Details".
 */
import type { ErrorValue } from '../../../../shared/errors';
import type { PanelApi } from '../../../../shared/panel-api';
import type { KickAdBreakStatus } from '../../../../shared/kick/resources';
import { LIMITS } from '../../../../shared/limits';
import { systemClock, type Clock } from '../clock';
import { explainAdError, type ShownError } from '../error-text';
import { endedBy, type GoneCause } from './held-error.svelte';
import { LoadState, type LoadFlags } from './load-state.svelte';

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

/** The break in Kick's status that is still running at `nowMs` (started, and its length not yet over). */
export function runningBreakIn(status: KickAdBreakStatus | null, nowMs: number): RunningBreak | null {
  let running: RunningBreak | null = null;
  for (const b of status?.ad_breaks ?? []) {
    const startedAtMs = Date.parse(b.created_at);
    if (Number.isNaN(startedAtMs)) {
      continue;
    }
    const endsAtMs = startedAtMs + b.break_duration_seconds * 1000;
    if (startedAtMs <= nowMs + 5_000 && nowMs < endsAtMs && (!running || endsAtMs > running.endsAtMs)) {
      running = { id: b.id, seconds: b.break_duration_seconds, endsAtMs };
    }
  }
  return running;
}

/** An ad refusal as the panel shows it: a title, the plain sentence, and Kick's answer behind "Details". */
export interface AdExplanation extends ShownError {
  title: string;
}

/** Ad status, enrolment and the running break. */
export class AdsState {
  #api: PanelApi;
  #clock: Clock;
  #isLive: () => boolean | null;
  #status = $state.raw<KickAdBreakStatus | null>(null);
  #load: LoadState;
  #actionError = $state.raw<{ error: ErrorValue; action: 'enroll' | 'run'; live: boolean | null } | null>(null);
  #busy = $state<'enroll' | 'run' | null>(null);
  /** The break this panel just started, until Kick's status lists it. */
  #started = $state.raw<RunningBreak | null>(null);
  #now = $state(0);
  #stopTicking: (() => void) | null = null;

  /** Bound to the length input. */
  seconds = $state<number | null>(30);

  readonly secondsError = $derived(validateAdSeconds(this.seconds));
  readonly running: RunningBreak | null = $derived.by(() => {
    const fromStatus = runningBreakIn(this.#status, this.#now);
    const started = this.#started && this.#now < this.#started.endsAtMs ? this.#started : null;
    if (!fromStatus || !started) {
      return fromStatus ?? started;
    }
    return fromStatus.endsAtMs >= started.endsAtMs ? fromStatus : started;
  });
  readonly remainingSeconds = $derived(
    this.running ? Math.max(0, Math.ceil((this.running.endsAtMs - this.#now) / 1000)) : 0,
  );
  readonly explanation: AdExplanation | null = $derived.by(() => {
    const failure = this.#actionError;
    return failure ? explainAdError(failure.error, { action: failure.action, live: failure.live }) : null;
  });

  /** `isLive`: whether the channel is live, when known (enrolling needs it offline). */
  constructor(api: PanelApi, clock: Clock = systemClock, isLive: () => boolean | null = () => null) {
    this.#api = api;
    this.#clock = clock;
    this.#load = new LoadState(clock);
    this.#isLive = isLive;
    this.#now = clock.now();
  }
  /** Whether the last fetch is under way, has succeeded, or failed and why (read-only to views). */
  get loadState(): LoadFlags {
    return this.#load;
  }

  get status(): KickAdBreakStatus | null {
    return this.#status;
  }
  get busy(): 'enroll' | 'run' | null {
    return this.#busy;
  }
  /** Whether the channel is live, when known. */
  get live(): boolean | null {
    return this.#isLive();
  }

  /** Reads Kick's status; a break it lists as running starts the countdown. */
  async load(): Promise<void> {
    await this.#load.run(
      () => this.#api.ads.status(),
      (status) => {
        this.#status = status;
        this.#now = this.#clock.now();
        this.#followRunning();
      },
    );
  }

  async enroll(): Promise<void> {
    this.#busy = 'enroll';
    this.#actionError = null;
    const result = await this.#api.ads.enroll();
    this.#busy = null;
    if (!result.ok) {
      this.#actionError = { error: result.error, action: 'enroll', live: this.#isLive() };
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
      this.#actionError = { error: result.error, action: 'run', live: this.#isLive() };
      if (result.error.code === 'Conflict') {
        // Most likely a break started elsewhere (another panel, Kick's dashboard): show its countdown.
        await this.load();
      }
      return;
    }
    this.#now = this.#clock.now();
    this.#started = { id: result.value.id, seconds, endsAtMs: this.#now + seconds * 1000 };
    if (this.#status) {
      this.#status = { ...this.#status, remaining_ad_breaks: result.value.remaining_ad_breaks };
    }
    this.#followRunning();
    // Kick's status lists the new break too, so a reload or another panel agrees with this one.
    void this.load();
  }

  dismissError(): void {
    this.#actionError = null;
  }

  /** An enroll or run refusal whose cause `cause` ended goes (held-error.svelte.ts). */
  clearIfEnded(cause: GoneCause): void {
    if (endedBy(this.#actionError?.error.code ?? null, cause)) {
      this.#actionError = null;
    }
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
    this.#started = null;
    this.seconds = 30;
  }

  /** Ticks while a break runs; stops, and reads the status again, when it ends. */
  #followRunning(): void {
    if (this.running && !this.#stopTicking) {
      this.#stopTicking = this.#clock.setInterval(() => this.#tick(), 250);
    }
  }

  #tick(): void {
    this.#now = this.#clock.now();
    if (!this.running) {
      this.#started = null;
      this.dispose();
      void this.load();
    }
  }
}

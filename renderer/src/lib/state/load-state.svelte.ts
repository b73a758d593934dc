/**
 * The loading / loaded / error flags of one fetch, shared by the panel states that load a value from main
 * (ads, stream info, rewards, feed, leaderboard, redemptions, health). Each of them used to repeat the same
 * block: set loading and clear the error, await a `Result`, clear loading, then describe the error or keep
 * the value and mark it loaded. Kept here once so every view words and times it the same way; the owning
 * class keeps the `LoadState` private and shows it to views as `load`, typed `LoadFlags` so only the owner
 * drives it.
 *
 * Views reload on the events that change them and after every reconnect (`view-refresh.ts`), so two loads
 * of one view can overlap: only the newest one's answer is kept. A reload that fails keeps the value read
 * before, and its error says when that was, so a kept value is never shown as if it were current
 * ([design notes](../../../../docs/design-notes.md#views-follow-the-events)).
 */
import type { ErrorValue, Result } from '../../../../shared/errors';
import { systemClock, type Clock } from '../clock';
import { explainError, type ShownError } from '../error-text';
import { formatClock } from '../format';

/** What a view reads of a load: the flags, not the means to change them. */
export interface LoadFlags {
  readonly loading: boolean;
  readonly loaded: boolean;
  readonly error: ShownError | null;
  /** A load has been asked for since the last `reset` (the view was shown, or asked for by the app). */
  readonly requested: boolean;
  /** When the value shown was read (ms), or null before the first success. */
  readonly loadedAtMs: number | null;
}

/** Flags of a load from main; `run` drives them around one call. */
export class LoadState implements LoadFlags {
  #clock: Clock;
  #loading = $state(false);
  #loaded = $state(false);
  #requested = $state(false);
  #loadedAtMs = $state<number | null>(null);
  #error = $state.raw<ShownError | null>(null);
  /** Bumped by every `run` and `reset`: a call that is no longer the newest is not applied. */
  #seq = 0;

  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  /** A call is under way. */
  get loading(): boolean {
    return this.#loading;
  }
  /** At least one call has succeeded since the last `reset`. */
  get loaded(): boolean {
    return this.#loaded;
  }
  get requested(): boolean {
    return this.#requested;
  }
  get loadedAtMs(): number | null {
    return this.#loadedAtMs;
  }
  /** The last failure in plain words (with its technical detail), or null. */
  get error(): ShownError | null {
    return this.#error;
  }

  /**
   * Runs `call` with the flags around it. On success `apply` gets the value in the same synchronous step that
   * clears `loading` and sets `loaded`, so a view never sees "loaded" without the value. On failure the
   * owner's value is left as it was and `error` says why, and since when the value shown is as it is. A call
   * overtaken by a newer `run` (or a `reset`) changes nothing when it ends. Resolves to whether this call's
   * value was applied.
   */
  async run<T>(call: () => Promise<Result<T>>, apply: (value: T) => void): Promise<boolean> {
    const seq = ++this.#seq;
    this.#requested = true;
    this.#loading = true;
    this.#error = null;
    const result = await call();
    if (seq !== this.#seq) {
      return false;
    }
    this.#loading = false;
    if (!result.ok) {
      this.#error = this.#asOf(explainError(result.error));
      return false;
    }
    this.#loaded = true;
    this.#loadedAtMs = this.#clock.now();
    apply(result.value);
    return true;
  }

  /** Shows a failure of another call (an action on the loaded value) in the same place. */
  fail(error: ErrorValue): void {
    this.#error = explainError(error);
  }

  clearError(): void {
    this.#error = null;
  }

  reset(): void {
    this.#seq++;
    this.#loading = false;
    this.#loaded = false;
    this.#requested = false;
    this.#loadedAtMs = null;
    this.#error = null;
  }

  /** A failed reload beside a value read before: says when that value was read. */
  #asOf(shown: ShownError): ShownError {
    const at = this.#loadedAtMs;
    return at === null ? shown : { ...shown, text: `${shown.text} What is shown is as of ${formatClock(at)}.` };
  }
}

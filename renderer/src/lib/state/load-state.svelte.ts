/**
 * The loading / loaded / error flags of one fetch, shared by the panel states that load a value from main
 * (ads, stream info, rewards, feed, leaderboard, redemptions, health). Each of them used to repeat the same
 * block: set loading and clear the error, await a `Result`, clear loading, then describe the error or keep
 * the value and mark it loaded. Kept here once so every view words and times it the same way; the owning
 * class keeps the `LoadState` private and shows it to views as `load`, typed `LoadFlags` so only the owner
 * drives it.
 */
import type { ErrorValue, Result } from '../../../../shared/errors';
import { explainError, type ShownError } from '../error-text';

/** What a view reads of a load: the three flags, not the means to change them. */
export interface LoadFlags {
  readonly loading: boolean;
  readonly loaded: boolean;
  readonly error: ShownError | null;
}

/** Flags of a load from main; `run` drives them around one call. */
export class LoadState implements LoadFlags {
  #loading = $state(false);
  #loaded = $state(false);
  #error = $state.raw<ShownError | null>(null);

  /** A call is under way. */
  get loading(): boolean {
    return this.#loading;
  }
  /** At least one call has succeeded since the last `reset`. */
  get loaded(): boolean {
    return this.#loaded;
  }
  /** The last failure in plain words (with its technical detail), or null. */
  get error(): ShownError | null {
    return this.#error;
  }

  /**
   * Runs `call` with the flags around it. On success `apply` gets the value in the same synchronous step that
   * clears `loading` and sets `loaded`, so a view never sees "loaded" without the value. On failure the
   * owner's value is left as it was and `error` says why. Resolves to whether the call succeeded.
   */
  async run<T>(call: () => Promise<Result<T>>, apply: (value: T) => void): Promise<boolean> {
    this.#loading = true;
    this.#error = null;
    const result = await call();
    this.#loading = false;
    if (!result.ok) {
      this.fail(result.error);
      return false;
    }
    this.#loaded = true;
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
    this.#loading = false;
    this.#loaded = false;
    this.#error = null;
  }
}

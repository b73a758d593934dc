/**
 * An error a view keeps on screen until its cause is gone ([design notes](../../../../docs/design-notes.md#when-greenroom-is-not-running)).
 * The panel states hold the failures of the streamer's own actions (a save, a search, a note) beside the
 * control; each clears on the next try, and also when what caused it has ended:
 *
 * - **the link came back** (`'reconnect'`): the panel could not reach the app (`AppUnreachable`) or the app
 *   did not answer (`AppTimeout`); neither is true once the link is open again;
 * - **the streamer signed in** (`'sign-in'`): the failure was for want of a sign-in (`NotSignedIn`) or a
 *   sign-in Kick ended (`Unauthorized`, `RefreshRejected`).
 *
 * Any other failure (Kick refused, a field was invalid) is still true after either, and stays.
 */
import type { ErrorCode, ErrorValue } from '../../../../shared/errors';
import { explainError, type ShownError } from '../error-text';

/** What ended: the link to the app came back, or the streamer signed in. */
export type GoneCause = 'reconnect' | 'sign-in';

const ENDED_BY: Record<GoneCause, ReadonlySet<ErrorCode>> = {
  reconnect: new Set<ErrorCode>(['AppUnreachable', 'AppTimeout']),
  'sign-in': new Set<ErrorCode>(['NotSignedIn', 'Unauthorized', 'RefreshRejected']),
};

/** Whether a failure with `code` no longer holds once `cause` has happened. */
export function endedBy(code: ErrorCode | null, cause: GoneCause): boolean {
  return code !== null && ENDED_BY[cause].has(code);
}

/** One error shown beside a control, with the code it came from. */
export class HeldError {
  #held = $state.raw<{ shown: ShownError; code: ErrorCode | null } | null>(null);

  /** What the view shows, or null. */
  get shown(): ShownError | null {
    return this.#held?.shown ?? null;
  }

  /** A failure from main; `shown` when the view words it its own way. */
  fail(error: ErrorValue, shown: ShownError = explainError(error)): void {
    this.#held = { shown, code: error.code };
  }

  /** Words the panel wrote itself (a field refusal); they stay until the next try. */
  show(shown: ShownError | null): void {
    this.#held = shown ? { shown, code: null } : null;
  }

  clear(): void {
    this.#held = null;
  }

  /** Clears the error when `cause` ended what caused it; true when it did. */
  clearIfEnded(cause: GoneCause): boolean {
    if (!endedBy(this.#held?.code ?? null, cause)) {
      return false;
    }
    this.#held = null;
    return true;
  }
}

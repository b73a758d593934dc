/**
 * Plain words for failures. Code branches on `error.code` (never on message text); the message from main
 * already names the field and limit, so it is shown as it is, with a sentence of advice where the code
 * alone tells the streamer what to do.
 */
import type { ErrorValue } from '../../../shared/errors';
import type { KickRedemptionFailureReason } from '../../../shared/kick/resources';
import { LIMITS } from '../../../shared/limits';

/** The error message with advice for the codes every view shares. */
export function describeError(error: ErrorValue): string {
  switch (error.code) {
    case 'NotSignedIn':
    case 'RefreshRejected':
    case 'Unauthorized':
      return `${error.message} — sign in with Kick again.`;
    case 'MissingScope':
      return `${error.message} — sign in again to grant the missing permission.`;
    case 'Network':
    case 'Timeout':
      return `${error.message} — Kick could not be reached; try again in a moment.`;
    case 'Ratelimited':
      return `${error.message} — Kick is rate limiting; wait a little before trying again.`;
    default:
      return error.message;
  }
}

/** Ad-break failures in plain words: what happened and what to do. */
export function explainAdError(error: ErrorValue): { title: string; detail: string } {
  switch (error.code) {
    case 'Conflict':
      return {
        title: 'An ad break is already running',
        detail: 'Kick runs one ad break at a time. Wait for the current one to finish, then start the next.',
      };
    case 'Ratelimited':
      return {
        title: 'No ad breaks left for now',
        detail:
          'Kick limits how many ad breaks a channel may run in each period. The limit resets on its own; try again later.',
      };
    case 'BadRequest':
      return {
        title: 'Kick refused this ad break',
        detail: `The channel may not be eligible right now (not enrolled, ads blocked, or not live), or the length is outside ${LIMITS.adBreakSecondsMin}–${LIMITS.adBreakSecondsMax} seconds. Kick said: ${error.message}`,
      };
    case 'MissingScope':
      return {
        title: 'Greenroom may not manage ads yet',
        detail: 'Sign in again and grant the ads permissions (ads:read and ads:write).',
      };
    default:
      return { title: 'The ad request failed', detail: describeError(error) };
  }
}

/** Why Kick could not accept or reject one redemption. */
export function explainRedemptionFailure(reason: KickRedemptionFailureReason): string {
  switch (reason) {
    case 'NOT_PENDING':
      return 'Already accepted or rejected elsewhere.';
    case 'NOT_FOUND':
      return 'Kick no longer has this redemption.';
    case 'NOT_OWNED':
      return 'This reward belongs to another app; manage it there.';
    case 'UNKNOWN':
      return 'Kick could not process it; try again.';
    default:
      return reason;
  }
}

/**
 * Plain words for failures. What the streamer reads says what happened and what to do, chosen by
 * `error.code` (never by message text); the technical part (the operation, `ECONNREFUSED`, the HTTP status,
 * Kick's own message and code) goes behind a "Details" toggle ({@link ShownError.detail}, rendered by
 * ErrorNote.svelte). Only a rejected input keeps main's message up front: it already names the field and
 * the limit, in words the streamer typed against.
 */
import type { ErrorValue } from '../../../shared/errors';
import type { KickRedemptionFailureReason } from '../../../shared/kick/resources';
import { isKickScope } from '../../../shared/kick/scopes';
import { LIMITS } from '../../../shared/limits';
import type { ModAction } from '../../../shared/views';
import { allowWords } from './access';

/** A failure as the panel shows it: the plain sentence, and the technical detail behind "Details". */
export interface ShownError {
  text: string;
  detail: string | null;
  /** Only signing in mends it, so a Retry beside it would fail the same way and is not offered. */
  needsSignIn?: boolean;
}

/** Codes whose cure is a sign-in, not another try. */
const CURED_BY_SIGN_IN: ReadonlySet<ErrorValue['code']> = new Set(['NotSignedIn', 'RefreshRejected', 'Unauthorized']);

/** The streamer's words for each code; `null` keeps main's message (a rejected input names field and limit). */
function plainWords(error: ErrorValue): string | null {
  switch (error.code) {
    case 'Validation':
    case 'InvalidArgument':
      return null;
    case 'NotSignedIn':
      return 'You are signed out. Sign in with Kick to do this.';
    case 'RefreshRejected':
    case 'Unauthorized':
      return 'Kick ended your sign-in. Sign in with Kick again.';
    case 'MissingScope': {
      // What to allow, in the Health tab's words; Kick's name for it stays behind Details (errorDetail).
      const known = scopesOf(error).filter(isKickScope);
      return known.length > 0
        ? `To do this, sign in again and ${allowWords(known)}.`
        : 'Greenroom does not have your permission for this yet. Sign in again and approve what it asks for.';
    }
    case 'Forbidden':
      return 'Kick does not allow this for your account or channel.';
    case 'NotFound':
      return 'Kick could not find it; it may have been removed already.';
    case 'Conflict':
      return 'Kick says this clashes with something already under way. Wait a moment, then try again.';
    case 'Ratelimited':
      return 'Kick is limiting how fast Greenroom may ask. Wait a little, then try again.';
    case 'ServerError':
      return 'Kick had a problem on its side. Try again in a moment.';
    // Kick answered, but not in the shape this version knows (which field is behind Details): whatever was asked
    // may have been done already, so a retry could do it twice.
    case 'UnexpectedAnswer':
      return 'Kick answered in a way this version of Greenroom does not understand, so it cannot tell whether this worked. Check on Kick before trying again; an update of Greenroom may be needed.';
    case 'Network':
      return 'Greenroom could not reach Kick. Check your internet connection, then try again.';
    case 'Timeout':
      return 'Kick did not answer in time. Try again in a moment.';
    case 'BadRequest':
      return 'Kick refused this request.';
    case 'AuthCancelled':
      return 'Sign-in was cancelled.';
    case 'AuthTimedOut':
      return 'Sign-in timed out waiting for the browser. Try again.';
    case 'AuthDenied':
      return 'Kick said the sign-in was denied. Try again and approve the permissions.';
    case 'AuthStateMismatch':
    case 'AuthCallbackInvalid':
      return 'The answer from Kick did not belong to this sign-in. Start the sign-in again.';
    case 'AuthPortInUse':
      return 'Another program is using the sign-in port. Close it, or change the redirect port in Settings.';
    case 'NotConfigured':
      return 'Add your Kick app credentials in Settings first.';
    // The panel's own link to the app, never Kick's doing ([design notes](../../../docs/design-notes.md#when-greenroom-is-not-running)).
    case 'AppUnreachable':
      return 'Greenroom is not running — reconnecting. Try again once it is back.';
    case 'AppTimeout':
      return 'Greenroom did not answer in time. Try again in a moment.';
    // OBS's answers, never Kick's (docs/obs.md#connection-states).
    case 'ObsNotConnected':
      return 'Greenroom is not connected to OBS. Check that OBS is open, then look at OBS in Health.';
    case 'ObsWrongPassword':
      return 'OBS refused the password. Copy it from OBS (Tools → WebSocket Server Settings → Show Connect Info) into Settings.';
    case 'ObsRequestFailed':
      return 'OBS could not do this. Check the scene or source still exists in OBS, then try again.';
    case 'HistoryUnavailable':
      return 'The stream history is not running here, so past streams cannot be shown. Everything else works as usual.';
    case 'SecretStoreUnavailable':
      return 'Greenroom cannot store your sign-in safely on this computer. Unlock or install a keyring, then restart.';
    default:
      return 'Something went wrong inside Greenroom. Try again; if it keeps happening, restart Greenroom.';
  }
}

/** The permission names main sent with a `MissingScope` (Kick's names, such as `chat:write`). */
function scopesOf(error: ErrorValue): string[] {
  const scopes = error.details?.scopes;
  return Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * The technical facts, for the "Details" toggle: main's message, the HTTP status, Kick's message and code,
 * and Kick's names for a missing permission.
 */
export function errorDetail(error: ErrorValue): string {
  const parts = [error.message];
  const d = error.details ?? {};
  const scopes = scopesOf(error);
  if (scopes.length > 0) {
    parts.push(`Kick permission: ${scopes.join(' or ')}`);
  }
  if (typeof d.status === 'number') {
    parts.push(`HTTP ${d.status}`);
  }
  if (typeof d.kickMessage === 'string' && d.kickMessage !== '') {
    parts.push(`Kick said: ${d.kickMessage}`);
  }
  if (typeof d.kickCode === 'string' && d.kickCode !== '') {
    parts.push(`Kick's code: ${d.kickCode}`);
  }
  parts.push(`Greenroom code: ${error.code}`);
  return parts.join(' · ');
}

/** The plain sentence and its detail. */
export function explainError(error: ErrorValue): ShownError {
  const words = plainWords(error);
  const shown = words === null ? { text: error.message, detail: null } : { text: words, detail: errorDetail(error) };
  return CURED_BY_SIGN_IN.has(error.code) ? { ...shown, needsSignIn: true } : shown;
}

/** The plain sentence alone (for places with no room for details). */
export function describeError(error: ErrorValue): string {
  return explainError(error).text;
}

/** A message the panel itself wrote (no technical part). */
export function plainError(text: string): ShownError {
  return { text, detail: null };
}

/** What the ads view knows when explaining a refusal. */
export interface AdContext {
  action: 'enroll' | 'run';
  /** Whether the channel is live, when known. */
  live: boolean | null;
}

/** Ad-break failures in plain words: what happened and what to do, with the technical detail. */
export function explainAdError(error: ErrorValue, context: AdContext): { title: string; text: string; detail: string } {
  const detail = errorDetail(error);
  const kickCode = typeof error.details?.kickCode === 'string' ? error.details.kickCode : null;
  const say = (title: string, text: string) => ({ title, text, detail });
  if (context.action === 'enroll' && error.code === 'BadRequest') {
    // Kick enrolls only an offline channel that has streamed before (docs/product-spec.md, preconditions).
    if (kickCode === 'CHANNEL_LIVE' || (kickCode === null && context.live === true)) {
      return say(
        'You must be offline to enroll',
        'Kick enrolls a channel in ads only while it is offline. End the stream, enroll, then go live again.',
      );
    }
    if (kickCode === 'NEVER_STREAMED') {
      return say('Stream once before enrolling', 'Kick enrolls only channels that have gone live at least once.');
    }
    return say(
      'Kick refused to enroll this channel',
      'Kick enrolls a channel only while it is offline and after it has streamed once, and only if it may show ads.',
    );
  }
  switch (error.code) {
    case 'Conflict':
      return kickCode === 'ADS_BLOCKED'
        ? say('Ads are blocked on this channel', 'Kick has blocked ads here, so no break can run.')
        : say(
            'An ad break is already running',
            'Kick runs one ad break at a time. The countdown shows when this one ends; start the next after that.',
          );
    case 'Ratelimited':
      return say(
        'No ad breaks left for now',
        'Kick limits how many ad breaks a channel may run in each period. The limit resets on its own; try again later.',
      );
    case 'BadRequest':
      if (kickCode === 'CHANNEL_OFFLINE' || (kickCode === null && context.live === false)) {
        return say('Go live first', 'Kick runs ad breaks only while you are live.');
      }
      if (kickCode === 'NOT_ENROLLED') {
        return say('Enroll in ads first', 'Kick runs ad breaks only on channels enrolled in ads.');
      }
      return say(
        'Kick refused this ad break',
        `The channel may not be eligible right now (not enrolled, ads blocked, or not live), or the length is outside ${LIMITS.adBreakSecondsMin}–${LIMITS.adBreakSecondsMax} seconds.`,
      );
    case 'MissingScope':
      return say(
        'Greenroom may not manage ads yet',
        `To manage ads, sign in again and ${allowWords(['ads:read', 'ads:write'], 'and')}.`,
      );
    default:
      return say('The ad request failed', explainError(error).text);
  }
}

/** Why a logged moderation action failed, in plain words with main's message as the detail. */
export function explainModFailure(action: ModAction): ShownError {
  if (action.errorCode) {
    return explainError({ code: action.errorCode, message: action.error ?? '' });
  }
  return { text: 'Kick refused it.', detail: action.error ?? null };
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

/**
 * Whether the streamer may use a control that needs one Kick permission, and if not, why, in their words.
 * Signed out is its own answer ("Sign in to manage rewards"), never a missing permission: a signed-out panel
 * holds no permissions at all, so naming one would send the streamer to grant what they already granted
 * ([design notes](../../../docs/design-notes.md#signed-out-is-not-a-missing-permission)). Signed in without it, the
 * answer names what to allow as the Health tab words it; Kick's name for the permission goes behind Details.
 * Pure.
 */
import type { KickScope } from '../../../shared/kick/scopes';
import { SCOPE_WORDS } from './health-words';

/** What the panel knows of the sign-in. */
export interface SignInFacts {
  readonly signedIn: boolean;
  hasScope(scope: KickScope): boolean;
}

/** A control's access: allowed, or why not (`text`), with Kick's permission name behind Details (`detail`). */
export type Access =
  | { allowed: true }
  | { allowed: false; signedOut: true; text: string; detail: null }
  | { allowed: false; signedOut: false; scope: KickScope; text: string; detail: string };

export const ALLOWED: Access = { allowed: true };

/**
 * `allow Greenroom to “send chat messages”`: what to allow, as the Health tab words it (only its first
 * letter lowered, so “see KICKs gifted to you” keeps its capitals). Several are joined by `joiner`: "or"
 * when any one of them will do, "and" when all are needed.
 */
export function allowWords(scopes: readonly KickScope[], joiner: 'or' | 'and' = 'or'): string {
  const quoted = scopes.map((scope) => {
    const words = SCOPE_WORDS[scope];
    return `“${words.charAt(0).toLowerCase()}${words.slice(1)}”`;
  });
  return `allow Greenroom to ${quoted.join(` ${joiner} `)}`;
}

/**
 * The access to a control that needs `scope`; `task` says what it does, after "to" ("manage rewards",
 * "run ad breaks").
 */
export function accessFor(session: SignInFacts, scope: KickScope, task: string): Access {
  if (!session.signedIn) {
    return { allowed: false, signedOut: true, text: `Sign in to ${task}.`, detail: null };
  }
  if (session.hasScope(scope)) {
    return ALLOWED;
  }
  return {
    allowed: false,
    signedOut: false,
    scope,
    text: `To ${task}, sign in again and ${allowWords([scope])}.`,
    detail: `Kick permission: ${scope}`,
  };
}

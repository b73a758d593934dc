/**
 * What a settings change asks of the running app. The app is built from an {@link AppConfig}; the parts of
 * it the services read live from the settings (notifications, scrollback, scopes) need nothing, and every
 * other part (credentials, Kick's addresses, the redirect URL, the tunnel, the wanted events, the ports) is
 * read once while building, so a change there means building the app again (app-host.ts). A field this file
 * does not know counts as "rebuild": a new setting is never silently ignored.
 *
 * Pure, so each rule is a unit test.
 */
import { isDeepStrictEqual } from 'node:util';
import type { AppConfig } from '../app/config';

/**
 * What changed, in the streamer's words ("the tunnel"); no changes when the running app already matches.
 * Sign-in needs nothing here: stored tokens name the Kick app they were issued to, and an app never loads
 * another app's (kick/auth/user-session.ts), so a new client id starts signed out and a new secret does not.
 */
export interface RestartPlan {
  changes: string[];
}

/** Read live by the running app (create-app.ts reads them from the settings store when used). */
const READ_LIVE: ReadonlySet<string> = new Set(['chatScrollback', 'notifications', 'scopes', 'emoteHost', 'warnings']);

/**
 * Follow from the mode and the credentials; a change in them shows up in `mode` or `kick` as well. The live
 * socket's hosts follow the mode and the environment, which does not change while Greenroom runs.
 */
const DERIVED: ReadonlySet<string> = new Set([
  'sandboxNotice',
  'sandbox',
  'credentialSource',
  'clientId',
  'liveSocket',
]);

/** How each rebuilding field is named to the streamer. */
const NAMES: Record<string, string> = {
  redirectUri: 'the redirect URL',
  tunnel: 'the tunnel',
  wantedEvents: 'the events to receive',
  webhook: 'the webhook receiver',
  panelPort: 'the panel port',
  dataDir: 'the data folder',
};

/** Compares the running app's configuration with the one the settings resolve to now. */
export function planRestart(current: AppConfig, next: AppConfig): RestartPlan {
  const changes: string[] = [];
  if (current.mode !== next.mode || !isDeepStrictEqual(current.kick, next.kick)) {
    changes.push(describeCredentials(current, next));
  }
  const keys = new Set([...Object.keys(current), ...Object.keys(next)]);
  for (const key of keys) {
    if (key === 'mode' || key === 'kick' || READ_LIVE.has(key) || DERIVED.has(key)) {
      continue;
    }
    if (key === 'tunnel' && current.mode !== next.mode) {
      // The sandbox always runs without one (config.ts); Kick's follows the setting. Part of the switch.
      continue;
    }
    const before = (current as unknown as Record<string, unknown>)[key];
    const after = (next as unknown as Record<string, unknown>)[key];
    const same = key === 'wantedEvents' ? sameSet(before, after) : isDeepStrictEqual(before, after);
    if (!same) {
      changes.push(NAMES[key] ?? `the "${key}" setting`);
    }
  }
  return { changes };
}

/** One line for the panel once the new app runs; `signedIn` is the new app's actual sign-in state. */
export function describeApplied(plan: RestartPlan, next: { mode: AppConfig['mode']; signedIn: boolean }): string {
  const what = plan.changes.length > 0 ? plan.changes.join(', ') : 'the saved settings';
  const signIn = next.mode === 'kick' && !next.signedIn ? ' Sign in with Kick to continue.' : '';
  return `Greenroom now runs with ${what}.${signIn}`;
}

function describeCredentials(current: AppConfig, next: AppConfig): string {
  if (!next.kick) {
    return 'the embedded sandbox (no Kick app credentials)';
  }
  if (!current.kick) {
    return "your Kick app's credentials";
  }
  if (current.kick.clientId !== next.kick.clientId) {
    return 'a different Kick app';
  }
  return current.kick.clientSecret !== next.kick.clientSecret ? 'the new client secret' : "Kick's addresses";
}

function sameSet(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) {
    return isDeepStrictEqual(a, b);
  }
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((value) => right.has(value));
}

/**
 * The settings file's versioned migrations. `MIGRATIONS[n]` takes a version-n document to version n+1, so
 * a file from any earlier Greenroom is upgraded step by step; a new version adds one function at the end
 * and never edits an old one (old files still pass through it).
 */

/** Upgrades a settings document by one version. */
export type Migration = (doc: Record<string, unknown>) => Record<string, unknown>;

/**
 * v0 (the pre-release builds, no `version` field): a redirect *port* rather than a URI, the event list as
 * `events`, `scrollback` for the chat length and flat notification flags. v1 names them as the panel does.
 */
export function migrateV0ToV1(doc: Record<string, unknown>): Record<string, unknown> {
  const { redirectPort, events, scrollback, notifyFollows, notifySubs, notifyKicks, notifyRedemptions, ...rest } = doc;
  const next: Record<string, unknown> = { ...rest };
  if (typeof redirectPort === 'number' && next.redirectUri === undefined) {
    next.redirectUri = `http://127.0.0.1:${redirectPort}/callback`;
  }
  if (events !== undefined && next.wantedEvents === undefined) {
    next.wantedEvents = events;
  }
  if (scrollback !== undefined && next.chatScrollback === undefined) {
    next.chatScrollback = scrollback;
  }
  const flags = { follows: notifyFollows, subs: notifySubs, kicks: notifyKicks, redemptions: notifyRedemptions };
  if (Object.values(flags).some((v) => v !== undefined) && next.notifications === undefined) {
    next.notifications = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  }
  return next;
}

/** `MIGRATIONS[n]` takes a version-n document to version n+1; the current version is their count. */
export const MIGRATIONS: readonly Migration[] = [migrateV0ToV1];
/** The version this Greenroom writes. */
export const SETTINGS_VERSION = MIGRATIONS.length;

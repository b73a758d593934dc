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

/**
 * v1 → v2: the webhook receiver's port moves into the settings. Before, it was a free port picked on every
 * start, which a streamer's own tunnel or reverse proxy could not follow. The port is written into the file
 * rather than left to the field's default, so a later Greenroom that changes the default does not move the
 * receiver of an install whose routing already points at it; for the same reason the number is spelled out
 * here instead of read from config.ts, whose default may change.
 */
export function migrateV1ToV2(doc: Record<string, unknown>): Record<string, unknown> {
  return doc.webhookPort === undefined ? { ...doc, webhookPort: 7532 } : { ...doc };
}

/**
 * v2 → v3: the setup guide opens by itself until the streamer finishes or closes it. A file an earlier
 * Greenroom wrote carries a `version`, so its streamer is past first run and is not shown the guide again;
 * a new install's empty document has none.
 */
export function migrateV2ToV3(doc: Record<string, unknown>): Record<string, unknown> {
  return doc.setupGuideDone === undefined ? { ...doc, setupGuideDone: doc.version !== undefined } : { ...doc };
}

/**
 * v3 → v4: OBS overlays and streamer mode. Streamer mode starts on for an install whose Greenroom already
 * ran (`version` present): until v4 the panel never showed the stream key, and a streamer who shares their
 * screen should not find it revealable after an update they did not read about. A new install starts with
 * it off and the key masked. Overlay settings start at their defaults (the field's own).
 */
export function migrateV3ToV4(doc: Record<string, unknown>): Record<string, unknown> {
  return doc.streamerMode === undefined ? { ...doc, streamerMode: doc.version !== undefined } : { ...doc };
}

/** `MIGRATIONS[n]` takes a version-n document to version n+1; the current version is their count. */
export const MIGRATIONS: readonly Migration[] = [migrateV0ToV1, migrateV1ToV2, migrateV2ToV3, migrateV3ToV4];
/** The version this Greenroom writes. */
export const SETTINGS_VERSION = MIGRATIONS.length;

/**
 * The history store's schema, as numbered migrations ([history](../../docs/history.md#schema-and-migrations)).
 * Each migration runs once, in its own transaction, and is recorded in `schema_versions` with the time it was
 * applied; a store from a newer Greenroom (a version this build does not know) is refused, never written to,
 * since this build cannot tell what its own writes would break there.
 */
import type { Clock } from '../core/clock';
import type { SqliteDatabase } from './sqlite-driver';
import { CHAT_ROLLUPS } from './history-rollups';

export interface Migration {
  version: number;
  /** What it changes, in one line, for the log. */
  summary: string;
  sql: string;
}

/** v1: streams, their changes, events for good, chat lines (pruned), and per-viewer counts (for good). */
const V1 = `
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE streams (
  started_at_ms INTEGER PRIMARY KEY,
  ended_at_ms INTEGER,
  seen_from_ms INTEGER NOT NULL,
  title TEXT NOT NULL,
  category TEXT
);
CREATE TABLE stream_changes (
  id INTEGER PRIMARY KEY,
  stream_id INTEGER NOT NULL REFERENCES streams (started_at_ms),
  at_ms INTEGER NOT NULL,
  title TEXT NOT NULL,
  category TEXT
);
CREATE INDEX stream_changes_stream ON stream_changes (stream_id, at_ms);
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  received_at_ms INTEGER NOT NULL,
  stream_id INTEGER,
  user_id INTEGER,
  username TEXT,
  amount INTEGER,
  detail TEXT
);
CREATE INDEX events_stream ON events (stream_id, at_ms);
CREATE INDEX events_user ON events (user_id, at_ms);
CREATE TABLE chat_lines (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  at_ms INTEGER NOT NULL,
  stream_id INTEGER,
  user_id INTEGER,
  username TEXT,
  content TEXT NOT NULL
);
CREATE INDEX chat_lines_at ON chat_lines (at_ms);
CREATE INDEX chat_lines_user ON chat_lines (user_id, at_ms);
CREATE INDEX chat_lines_stream ON chat_lines (stream_id, at_ms);
CREATE TABLE viewers (
  user_id INTEGER PRIMARY KEY,
  username TEXT NOT NULL,
  first_seen_ms INTEGER NOT NULL,
  last_seen_ms INTEGER NOT NULL,
  messages INTEGER NOT NULL DEFAULT 0,
  followed_at_ms INTEGER,
  sub_months INTEGER NOT NULL DEFAULT 0,
  gifted_subs INTEGER NOT NULL DEFAULT 0,
  kicks INTEGER NOT NULL DEFAULT 0
);
`;

/**
 * v2: the streams each viewer attended, kept for good like the counts (chat lines, which would otherwise
 * tell it, go after the retention days), filled from what v1 holds.
 */
const V2 = `
CREATE TABLE viewer_streams (
  user_id INTEGER NOT NULL,
  stream_id INTEGER NOT NULL,
  PRIMARY KEY (user_id, stream_id)
) WITHOUT ROWID;
INSERT OR IGNORE INTO viewer_streams (user_id, stream_id)
  SELECT user_id, stream_id FROM chat_lines WHERE user_id IS NOT NULL AND stream_id IS NOT NULL;
INSERT OR IGNORE INTO viewer_streams (user_id, stream_id)
  SELECT user_id, stream_id FROM events
  WHERE user_id IS NOT NULL AND stream_id IS NOT NULL AND type <> 'moderation.banned';
`;

/**
 * v3: each stream's chatters read from an index alone, so a recap of half a million lines groups them without
 * sorting or reading a row ([history](../../docs/history.md#measuring-the-recap-and-the-card)).
 */
const V3 = 'CREATE INDEX chat_lines_stream_user ON chat_lines (stream_id, user_id);';

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, summary: 'streams, events, chat lines and viewer counts', sql: V1 },
  { version: 2, summary: 'the streams each viewer attended', sql: V2 },
  { version: 3, summary: "an index for a stream's chatters", sql: V3 },
  { version: 4, summary: "each stream's chat counted per minute and per chatter", sql: CHAT_ROLLUPS },
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

/** A store written by a newer Greenroom than this one. */
export class NewerSchemaError extends Error {
  constructor(readonly found: number) {
    super(`it was written by a newer Greenroom (schema version ${found}, this one knows up to ${SCHEMA_VERSION})`);
    this.name = 'NewerSchemaError';
  }
}

/** The versions recorded as applied, ascending (none for a new file). */
export function appliedVersions(db: SqliteDatabase): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_versions (version INTEGER PRIMARY KEY, applied_at_ms INTEGER NOT NULL)');
  return db
    .prepare('SELECT version FROM schema_versions ORDER BY version')
    .all()
    .map((row) => Number(row.version));
}

/**
 * Brings `db` up to the last of `migrations` (all of them by default; tests pass a prefix to write an older
 * store). Returns the versions it applied. A migration that fails is rolled back whole and rethrown.
 */
export function migrate(db: SqliteDatabase, clock: Clock, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const applied = appliedVersions(db);
  const current = applied.at(-1) ?? 0;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new NewerSchemaError(current);
  }
  const done: number[] = [];
  const record = db.prepare('INSERT INTO schema_versions (version, applied_at_ms) VALUES (?, ?)');
  for (const migration of migrations) {
    if (migration.version <= current) {
      continue;
    }
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migration.sql);
      record.run(migration.version, clock.now());
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    done.push(migration.version);
  }
  return done;
}

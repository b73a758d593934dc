/**
 * Opens the history store at start ([history](../../docs/history.md#crash-safety-and-rebuild)) and brings it
 * level with the journal:
 *
 * - WAL with `synchronous=NORMAL`: a committed transaction survives the process being killed (it is in the WAL,
 *   which the system holds), and a power cut can cost only the last commits, which the journal (synced before
 *   Kick's 200) still holds and the catch-up below applies again. `FULL` would add an fsync to every event's
 *   commit and buy nothing the journal does not already give.
 * - A file that is not a regular file (a link, a folder), empty, not a database, another program's database
 *   (read before anything is written to it), failing SQLite's check, damaged
 *   where the catch-up reads (SQLite's codes for a damaged file, 11 and 26), or written by a newer Greenroom is moved aside with its `-wal` and `-shm` (never
 *   deleted: it may still hold what the journal no longer does) in one plain line, and a new store is rebuilt
 *   from the journal.
 * - Any other failure to open (a `-wal` that is a folder, a permission, a full disk) is not the file's fault: the
 *   store is left where it is and the history is unavailable this run, the reason behind details.
 * - A missing store is built from the journal, also in one line.
 * - SQLite's own check (`quick_check`) reads the whole file: 3 s for a million events on a shared 2-core machine
 *   (`bench/history-store-compare.ts`), and the app waits for nothing while it runs. So it runs at every start
 *   only for a store up to {@link FULL_CHECK_MAX_BYTES}; a bigger one gets it when the last run did not close it
 *   cleanly (a crash, a kill, or a damage error seen while running, by the store or by any query over it).
 *   Every other start reads the schema and the last row of each table, which finds a file that is not a
 *   database or was cut short.
 * - Then every journal record after the last one the store holds is applied: nothing the journal
 *   acknowledged is missing from the history, whatever stopped the last run.
 */
import { chmodSync, closeSync, constants, lstatSync, openSync, renameSync } from 'node:fs';
import { basename } from 'node:path';
import type { Clock } from '../core/clock';
import type { EventJournal, JournalRecord } from '../webhooks/events/types';
import { migrate, NewerSchemaError } from './history-schema';
import { createHistoryStore, nextTurn } from './history-store';
import type { HistoryStore } from './history-store';
import type { SqliteDatabase, SqliteDriver, SqliteStatement, SqliteValue } from './sqlite-driver';

export interface OpenHistoryDeps {
  /** The database file, in the app's data folder. */
  path: string;
  driver: SqliteDriver;
  clock: Clock;
  journal: Pick<EventJournal, 'readAll'>;
  chatRetentionDays?: number;
  log: (line: string) => void;
  /** Stores up to this size get the full check at every start; default {@link FULL_CHECK_MAX_BYTES}. */
  fullCheckMaxBytes?: number;
  /** Awaited between the prune's batches; default: the next turn of the event loop. */
  yieldNow?: () => Promise<void>;
}

export interface OpenedHistory {
  store: HistoryStore;
  /** The open database, for the read-only queries beside the store (recap, streams list, viewer story). */
  db: SqliteDatabase;
  /** Why the store was built anew from the journal, or null when the one on disk was used. */
  rebuilt: 'missing' | 'damaged' | null;
  /** Journal records applied at open. */
  caughtUp: number;
}

const SIDE_FILES = ['-wal', '-shm'];

/**
 * A store up to this size (with its write-ahead log) gets SQLite's full check at every start, not only after an
 * unclean stop: garbage over a page the quick reads do not touch is then found at start, not by a failing recap.
 * Measured on this project's shared 2-core machine: 0.1 to 0.16 s for a 40 MB store.
 */
export const FULL_CHECK_MAX_BYTES = 32 * 1024 * 1024;

export async function openHistory(options: OpenHistoryDeps): Promise<OpenedHistory> {
  const { path, log } = options;
  let rebuilt: OpenedHistory['rebuilt'] = null;
  /** What was moved aside and why, said once the rebuild is done. */
  let aside = '';
  const problem = checkFile(path);
  if (problem === MISSING) {
    rebuilt = 'missing';
    moveSideFilesAside(path);
  } else if (problem !== null) {
    aside = moveAside(path, problem);
    rebuilt = 'damaged';
  }
  let db: SqliteDatabase;
  try {
    db = openChecked(options, rebuilt === null);
  } catch (error) {
    if (rebuilt !== null) {
      throw error; // a new, empty file that cannot be opened is a fault of the folder, not damage
    }
    if (!(error instanceof NewerSchemaError || error instanceof NotOursError || isDamage(error))) {
      // Not the file's fault (a `-wal` that is a folder, a permission, a full disk): the store stays where it is,
      // whole, for the next start; moving it aside would rebuild it from a journal that may hold far less.
      throw leftAsItIs(path, error);
    }
    aside = moveAside(
      path,
      error instanceof NewerSchemaError || error instanceof NotOursError
        ? error.message
        : `it could not be read (${describe(error)})`,
    );
    rebuilt = 'damaged';
    db = openChecked(options, false);
  }
  const records = await options.journal.readAll();
  let opened = await catchUp(db, options, records);
  if ('damage' in opened) {
    // Damage the checks at open did not reach (a page only the catch-up read): the file goes aside like any other.
    if (rebuilt !== null) {
      throw opened.damage; // a new store damaged at once is a fault of the disk, and a rebuild would not help
    }
    aside = moveAside(
      path,
      `SQLite found damage while bringing it level with the journal (${describe(opened.damage)})`,
    );
    rebuilt = 'damaged';
    opened = await catchUp(openChecked(options, false), options, records);
    if ('damage' in opened) {
      throw opened.damage;
    }
  }
  const { store, caughtUp } = opened;
  if (rebuilt === 'missing') {
    log(`history: there was no stream history yet; built it from the journal (${caughtUp} events)`);
  } else if (rebuilt === 'damaged') {
    log(`history: ${aside} and rebuilt the stream history from the journal (${caughtUp} events)`);
  }
  return { store, db: store.db, rebuilt, caughtUp };
}

/**
 * Marks the store in use, applies the journal's records after the last one it holds, and prunes old chat. A damage
 * error on the way is handed back (the store closed, not marked clean) for the caller to move the file aside;
 * any other error is thrown.
 */
async function catchUp(
  db: SqliteDatabase,
  options: OpenHistoryDeps,
  records: readonly JournalRecord[],
): Promise<{ store: WatchedStore; caughtUp: number } | { damage: unknown }> {
  let store: WatchedStore | null = null;
  try {
    setCleanMark(db, false);
    store = watchForDamage(
      createHistoryStore(db, { clock: options.clock, chatRetentionDays: options.chatRetentionDays }),
      db,
    );
    const caughtUp = store.catchUp(records);
    // In batches that let the app answer between them: a million old lines took 3.6 s in one statement.
    await store.pruneInBatches(options.yieldNow ?? nextTurn);
    return { store, caughtUp };
  } catch (error) {
    if (store) {
      store.close();
    } else {
      db.close();
    }
    if (isDamage(error)) {
      return { damage: error };
    }
    throw leftAsItIs(options.path, error);
  }
}

/** A database with tables but none of the store's: another program's file, put where the store belongs. */
class NotOursError extends Error {
  constructor(tables: string[]) {
    // A name is the other program's text: kept to one short, printable line.
    const printable = (name: string): string => oneLine(name.replace(/[\p{Cc}\p{Cf}]/gu, ' ')).slice(0, 40);
    const named =
      tables.slice(0, 3).map(printable).join(', ') + (tables.length > 3 ? `, and ${tables.length - 3} more` : '');
    super(`it is another program's database, not a stream history (its tables: ${named})`);
    this.name = 'NotOursError';
  }
}

/** Opens, checks and migrates; throws (and closes) when the file is not a sound store. */
function openChecked(options: OpenHistoryDeps, existed: boolean): SqliteDatabase {
  keepPrivate(options.path);
  const db = options.driver.open(options.path);
  try {
    // Before anything is written: another program's database is moved aside as it was, never given our tables.
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((row) => String(row.name));
    if (existed && tables.length > 0 && !tables.includes('schema_versions')) {
      throw new NotOursError(tables);
    }
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    migrate(db, options.clock);
    for (const table of ['events', 'chat_lines', 'streams', 'viewers']) {
      db.prepare(`SELECT * FROM ${table} ORDER BY rowid DESC LIMIT 1`).get();
    }
    const mark = db.prepare("SELECT value FROM meta WHERE name = 'closed_cleanly'").get();
    if (
      existed &&
      (mark?.value !== '1' || sizeOnDisk(options.path) <= (options.fullCheckMaxBytes ?? FULL_CHECK_MAX_BYTES))
    ) {
      const check = db.prepare('PRAGMA quick_check(1)').get();
      if (check?.quick_check !== 'ok') {
        const found = String(check?.quick_check ?? 'no answer').replace('*** in database main ***', '');
        throw new CheckFoundDamageError(`SQLite's check found damage: ${oneLine(found)}`);
      }
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The store holds what viewers wrote and who they are: 0600 like every file in the data folder. SQLite gives a
 * new database the process's default mode (0644 under the usual umask) and its `-wal` and `-shm` the database
 * file's mode, so the file is made 0600 before SQLite opens it; one left wider by an earlier run is narrowed.
 */
function keepPrivate(path: string): void {
  if (!exists(path)) {
    // O_EXCL: never through a link planted at the path; O_NOFOLLOW for the same reason.
    closeSync(openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, 0o600));
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    const stats = exists(file) ? lstatSync(file) : null;
    if (stats?.isFile() && (stats.mode & 0o077) !== 0) {
      chmodSync(file, 0o600);
    }
  }
}

function setCleanMark(db: SqliteDatabase, clean: boolean): void {
  db.prepare(
    "INSERT INTO meta (name, value) VALUES ('closed_cleanly', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
  ).run(clean ? '1' : '0');
}

/** An open that failed for a reason other than damage: the store stays, and the error says so. */
function leftAsItIs(path: string, error: unknown): Error {
  return new Error(`${path} could not be opened and was left as it is (${describe(error)})`, { cause: error });
}

/** SQLite's `quick_check` answered with something other than "ok". */
class CheckFoundDamageError extends Error {
  override name = 'CheckFoundDamageError';
}

/**
 * SQLITE_CORRUPT (11) and SQLITE_NOTADB (26), with or without an extended code, SQLite's check finding damage,
 * or a value no store holds: the only errors that say the file itself is damaged.
 */
function isDamage(error: unknown): boolean {
  // ERR_OUT_OF_RANGE: a stored integer beyond what JavaScript holds, which the store never writes, so garbage.
  if (error instanceof CheckFoundDamageError || (error as { code?: unknown } | null)?.code === 'ERR_OUT_OF_RANGE') {
    return true;
  }
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && [11, 26].includes(code & 0xff);
}

/** The store, and the database beside it for the read-only queries, both watched for damage errors. */
interface WatchedStore extends HistoryStore {
  readonly db: SqliteDatabase;
}

/**
 * Marks the store cleanly closed on close, unless a damage error was seen, by the store or by a query reading the
 * database beside it (a recap that found a damaged page): then the next start runs the full check, whatever the
 * store's size.
 */
function watchForDamage(store: HistoryStore, db: SqliteDatabase): WatchedStore {
  let sound = true;
  const watch =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } catch (error) {
        sound &&= !isDamage(error);
        throw error;
      }
    };
  const watchedDb: SqliteDatabase = {
    exec: watch((sql: string) => db.exec(sql)),
    prepare: watch((sql: string): SqliteStatement => {
      const statement = db.prepare(sql);
      return {
        run: watch((...params: SqliteValue[]) => statement.run(...params)),
        get: watch((...params: SqliteValue[]) => statement.get(...params)),
        all: watch((...params: SqliteValue[]) => statement.all(...params)),
      };
    }),
    close: () => db.close(),
  };
  return {
    db: watchedDb,
    apply: watch(store.apply),
    applyMany: watch(store.applyMany),
    catchUp: watch(store.catchUp),
    observeLiveStatus: watch(store.observeLiveStatus),
    prune: watch(store.prune),
    pruneInBatches: async (yieldNow, batchRows) => {
      try {
        return await store.pruneInBatches(yieldNow, batchRows);
      } catch (error) {
        sound &&= !isDamage(error);
        throw error;
      }
    },
    streams: watch(() => store.streams()),
    streamChanges: watch((streamId: number) => store.streamChanges(streamId)),
    viewer: watch((userId: number) => store.viewer(userId)),
    events: watch((filter?: Parameters<HistoryStore['events']>[0]) => store.events(filter)),
    chatLines: watch((filter?: Parameters<HistoryStore['chatLines']>[0]) => store.chatLines(filter)),
    close() {
      if (sound) {
        try {
          setCleanMark(db, true);
        } catch {
          // Closing must not fail: the next start runs the full check instead.
        }
      }
      store.close();
    },
  };
}

const MISSING = Symbol('missing');

/** Null for a regular file, MISSING, or why the path cannot be the store. */
function checkFile(path: string): string | typeof MISSING | null {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) {
      return 'it is a link to another file, which Greenroom does not follow';
    }
    if (!stat.isFile()) {
      return 'it is not a file';
    }
    // Zero bytes: never a store (SQLite writes its header at once), though SQLite would take it as a new one and
    // the rebuild would go unsaid. A first start killed before its first write leaves one, or a disk cleaner.
    return stat.size === 0 ? 'it is empty (0 bytes)' : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return MISSING;
    }
    return `it could not be read (${describe(error)})`;
  }
}

/**
 * `history.sqlite` → `history.sqlite.damaged` (or `.damaged-2`, …), its side files along with it; returns
 * the first half of the line that says so.
 */
function moveAside(path: string, why: string): string {
  let target = `${path}.damaged`;
  for (let n = 2; exists(target); n++) {
    target = `${path}.damaged-${n}`;
  }
  try {
    renameSync(path, target);
  } catch (error) {
    throw new Error(`history: ${path}: ${why}; could not move it aside (${describe(error)})`, { cause: error });
  }
  for (const side of SIDE_FILES) {
    if (exists(path + side)) {
      renameSync(path + side, target + side);
    }
  }
  return `${path}: ${why}; moved it aside to ${basename(target)}`;
}

/** A `-wal` left without its database would be read into the new one: it goes aside too. */
function moveSideFilesAside(path: string): void {
  for (const side of SIDE_FILES) {
    if (exists(path + side)) {
      renameSync(path + side, `${path}.orphan${side}`);
    }
  }
}

function sizeOnDisk(path: string): number {
  return [path, `${path}-wal`].reduce((sum, file) => sum + (exists(file) ? lstatSync(file).size : 0), 0);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function describe(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

/** SQLite's reports run over several lines; the log gets one. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

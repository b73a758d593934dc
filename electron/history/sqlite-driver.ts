/**
 * The slice of `node:sqlite` the history store uses, typed here and loaded at run time
 * ([history](../../docs/history.md#where-it-runs)). `node:sqlite` is built into Node 22.13 and later and into
 * Electron 45's Node 24, and absent from Node 20, on which the toolchain still runs; its types are not in the
 * `@types/node` 20 the project builds against. Loading it through `process.getBuiltinModule` (not an
 * `import`) keeps every module that names the store loadable on Node 20, where `loadSqlite` says so in one
 * line instead of failing at import.
 */

/** One prepared statement (`StatementSync`). */
export interface SqliteStatement {
  run(...params: SqliteValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqliteValue[]): Record<string, SqliteValue> | undefined;
  all(...params: SqliteValue[]): Record<string, SqliteValue>[];
}

/** One open database (`DatabaseSync`). */
export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

export type SqliteValue = string | number | bigint | null | Uint8Array;

/** What the store needs from the module: a way to open a file. */
export interface SqliteDriver {
  open(path: string): SqliteDatabase;
}

/** The line said where the history cannot run. */
export const SQLITE_MISSING = 'node:sqlite needs Node 22.13 or later';

/**
 * What to do about it, in the terminal line: the desktop app's own Node always has `node:sqlite`, and the
 * launcher runs the panel on its own on the project's Node 24 where the system's is older; started some other
 * way, the panel runs on whatever `node` comes first ([where it runs](../../docs/history.md#where-it-runs)).
 */
export const SQLITE_HOW_TO =
  'to keep past streams, run the panel on Node 22.13 or later: `bash scripts/ensure-node24.sh` puts Node 24 ' +
  'into .tools/ from the npm registry, and `npm start` and `npm run panel` then use it';

/** What the Streams tab says where the Node is too old: what to do, in a streamer's words. */
export const HISTORY_NEEDS_NEWER_NODE =
  'Past streams and recaps are not kept in this run: they need Node 22.13 or later, and this panel runs on an ' +
  'older one. Greenroom runs them on Node 24 when it can download it; the terminal says why it could not this ' +
  'time and how to try again. Everything else works.';

interface NodeSqliteModule {
  DatabaseSync: new (path: string, options?: { open?: boolean }) => SqliteDatabase;
}

/** `node:sqlite`, or null on a Node without it (20, or 22 before 22.13 without its flag). */
export function loadSqlite(): SqliteDriver | null {
  let mod: NodeSqliteModule | undefined;
  try {
    mod = process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined;
  } catch {
    mod = undefined;
  }
  if (!mod?.DatabaseSync) {
    return null;
  }
  const { DatabaseSync } = mod;
  return { open: (path) => new DatabaseSync(path) };
}

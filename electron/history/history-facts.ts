/**
 * What Health says of the stream history ([history](../../docs/history.md#in-health)): the store's size on disk
 * (its write-ahead log included, as that is where the newest events are until a checkpoint), the streams it keeps,
 * and its oldest chat line (older ones went after the retention days). Two indexed reads and three `stat`s: cheap
 * enough for every Health read.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { SqliteDatabase } from './sqlite-driver';

export interface HistoryFacts {
  sizeBytes: number;
  streams: number;
  oldestChatMs: number | null;
}

export function readHistoryFacts(db: SqliteDatabase, path: string): HistoryFacts {
  const streams = Number(db.prepare('SELECT count(*) AS n FROM streams').get()?.n ?? 0);
  const oldest = db.prepare('SELECT min(at_ms) AS at FROM chat_lines').get()?.at;
  return { sizeBytes: sizeOnDisk(path), streams, oldestChatMs: oldest == null ? null : Number(oldest) };
}

/** The store and its side files, in bytes; a file not there counts 0. */
export function sizeOnDisk(path: string): number {
  let bytes = 0;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      bytes += statSync(file).size;
    } catch {
      // not there (no write-ahead log yet): nothing to add
    }
  }
  return bytes;
}

/**
 * The newest file a damaged store was moved to (`history.sqlite.damaged`, `.damaged-2`, …), by its number, or
 * null: the name Health shows after a rebuild, so the streamer can find it.
 */
export function newestMovedAside(path: string): string | null {
  const prefix = `${basename(path)}.damaged`;
  let best: { name: string; n: number } | null = null;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return null;
  }
  for (const name of names) {
    const match = name.startsWith(prefix) ? /^(?:-(\d+))?$/.exec(name.slice(prefix.length)) : null;
    if (match) {
      const n = match[1] ? Number(match[1]) : 1;
      if (!best || n > best.n) {
        best = { name, n };
      }
    }
  }
  return best?.name ?? null;
}

/**
 * Weighs the candidate stores for the stream history ([decisions](../docs/decisions.md#the-stream-history-lives-in-nodesqlite)):
 * one million small events (a type, a time, a viewer among 100,000, an amount, a 26-character key) written in
 * batches of 1,000 as the live path would commit them, then the file size and a viewer lookup (all events of one
 * viewer, p95 of 1,000 random viewers).
 *
 * - `node:sqlite` in WAL mode, `synchronous=NORMAL` and `synchronous=FULL` (one transaction per batch);
 * - an own append-only JSON-lines file, one `fdatasync` per batch; its lookup needs an index in memory, built
 *   by reading the whole file at open, so that time is reported too.
 *
 * Standalone, not a `npm run bench` module: it needs `node:sqlite` (Node 22.13 or later) and prints one line per
 * figure to stdout. Run: `$(bash scripts/ensure-node24.sh | tail -1) bench/history-store-compare.ts`
 * (`HISTORY_COMPARE_EVENTS=100000` for a quick run).
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const EVENTS = Number(process.env.HISTORY_COMPARE_EVENTS ?? 1_000_000);
const VIEWERS = 100_000;
const BATCH = 1_000;
const LOOKUPS = 1_000;
const TYPES = ['channel.followed', 'channel.subscription.new', 'kicks.gifted', 'chat.message.sent'];

interface Row {
  key: string;
  type: string;
  atMs: number;
  userId: number;
  username: string;
  amount: number;
}

function row(i: number): Row {
  const userId = 1_000_000 + ((i * 7919) % VIEWERS);
  return {
    key: `01J${String(i).padStart(23, '0')}`,
    type: TYPES[i % TYPES.length]!,
    atMs: 1_760_000_000_000 + i * 50,
    userId,
    username: `viewer_${userId}`,
    amount: i % 5,
  };
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

function sizeMb(paths: string[]): number {
  let bytes = 0;
  for (const path of paths) {
    try {
      bytes += statSync(path).size;
    } catch {
      // a WAL file checkpointed away
    }
  }
  return bytes / 1024 / 1024;
}

function print(store: string, figures: Record<string, number>): void {
  for (const [name, value] of Object.entries(figures)) {
    console.log(`history-compare ${store} ${name}: ${Number.isInteger(value) ? value : value.toFixed(2)}`);
  }
}

interface SqliteModule {
  DatabaseSync: new (path: string) => {
    exec(sql: string): void;
    prepare(sql: string): { run(...a: unknown[]): unknown; all(...a: unknown[]): unknown[] };
    close(): void;
  };
}

function sqlite(dir: string, synchronous: 'NORMAL' | 'FULL'): void {
  const mod = process.getBuiltinModule('node:sqlite') as SqliteModule | undefined;
  if (!mod) {
    console.log(`history-compare sqlite-${synchronous.toLowerCase()}: node:sqlite needs Node 22.13 or later; skipped`);
    return;
  }
  const path = join(dir, `history-${synchronous}.sqlite`);
  const db = new mod.DatabaseSync(path);
  db.exec(`PRAGMA journal_mode=WAL; PRAGMA synchronous=${synchronous};
    CREATE TABLE events (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, type TEXT NOT NULL, at_ms INTEGER NOT NULL,
      user_id INTEGER, username TEXT, amount INTEGER);
    CREATE INDEX events_user ON events (user_id, at_ms);`);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO events (key, type, at_ms, user_id, username, amount) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const started = performance.now();
  for (let i = 0; i < EVENTS; i += BATCH) {
    db.exec('BEGIN');
    for (let j = i; j < Math.min(EVENTS, i + BATCH); j++) {
      const r = row(j);
      insert.run(r.key, r.type, r.atMs, r.userId, r.username, r.amount);
    }
    db.exec('COMMIT');
  }
  const insertMs = performance.now() - started;
  const lookup = db.prepare('SELECT type, at_ms, amount FROM events WHERE user_id = ? ORDER BY at_ms');
  const samples: number[] = [];
  for (let n = 0; n < LOOKUPS; n++) {
    const t = performance.now();
    lookup.all(1_000_000 + ((n * 104_729) % VIEWERS));
    samples.push(performance.now() - t);
  }
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const mb = sizeMb([path, `${path}-wal`]);
  db.close();
  const reopen = performance.now();
  const again = new mod.DatabaseSync(path);
  again.prepare('SELECT count(*) AS n FROM events WHERE user_id = ?').all(1_000_000);
  const openMs = performance.now() - reopen;
  // What the store's check at open costs on this size (history-open.ts runs it on every start).
  const check = performance.now();
  again.prepare('PRAGMA quick_check(1)').all();
  const quickCheckMs = performance.now() - check;
  again.close();
  print(`sqlite-${synchronous.toLowerCase()}`, {
    'inserts-per-s': Math.round(EVENTS / (insertMs / 1000)),
    'mb-per-million-events': (mb * 1_000_000) / EVENTS,
    'viewer-lookup-p95-ms': p95(samples),
    'open-ms': openMs,
    'quick-check-ms': quickCheckMs,
  });
}

function jsonLines(dir: string): void {
  const path = join(dir, 'history.jsonl');
  const fd = openSync(path, 'a', 0o600);
  const started = performance.now();
  for (let i = 0; i < EVENTS; i += BATCH) {
    let chunk = '';
    for (let j = i; j < Math.min(EVENTS, i + BATCH); j++) {
      chunk += `${JSON.stringify(row(j))}\n`;
    }
    writeSync(fd, chunk);
    fdatasyncSync(fd);
  }
  closeSync(fd);
  const insertMs = performance.now() - started;
  // A lookup needs an index: read everything at open, as the store would on every start.
  const open = performance.now();
  const byUser = new Map<number, Row[]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line) {
      const r = JSON.parse(line) as Row;
      const list = byUser.get(r.userId);
      if (list) {
        list.push(r);
      } else {
        byUser.set(r.userId, [r]);
      }
    }
  }
  const openMs = performance.now() - open;
  const samples: number[] = [];
  for (let n = 0; n < LOOKUPS; n++) {
    const t = performance.now();
    (byUser.get(1_000_000 + ((n * 104_729) % VIEWERS)) ?? []).map((r) => [r.type, r.atMs, r.amount]);
    samples.push(performance.now() - t);
  }
  print('jsonl', {
    'inserts-per-s': Math.round(EVENTS / (insertMs / 1000)),
    'mb-per-million-events': (sizeMb([path]) * 1_000_000) / EVENTS,
    'viewer-lookup-p95-ms': p95(samples),
    'open-ms': openMs,
    'index-heap-mb': process.memoryUsage().heapUsed / 1024 / 1024,
  });
}

const dir = mkdtempSync(join(tmpdir(), 'history-compare-'));
try {
  console.error(`history-compare: ${EVENTS} events, ${VIEWERS} viewers, batches of ${BATCH}, in ${dir}`);
  sqlite(dir, 'NORMAL');
  sqlite(dir, 'FULL');
  jsonLines(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

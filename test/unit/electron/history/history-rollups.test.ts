import { afterEach, expect, it } from 'vitest';
import { migrate } from '../../../../electron/history/history-schema';
import { createHistoryStore } from '../../../../electron/history/history-store';
import { createRollupQueries } from '../../../../electron/history/history-rollups';
import type { SqliteDatabase } from '../../../../electron/history/sqlite-driver';
import { describeSqlite, driver, events, fakeClock, MIN, T0 } from './history-fixtures';

/** A small deterministic generator, so a failure can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 4_294_967_296;
  };
}

/** The roll-ups and a direct count of the lines, side by side, in the same shape. */
function compare(db: SqliteDatabase): { rollup: unknown[]; direct: unknown[] } {
  const q = (sql: string) => db.prepare(sql).all();
  return {
    rollup: [
      q('SELECT stream_id, minute, messages FROM stream_chat_minutes ORDER BY stream_id, minute'),
      q('SELECT stream_id, user_id, messages FROM stream_chatters ORDER BY stream_id, user_id'),
    ],
    direct: [
      q(`SELECT stream_id, CASE WHEN at_ms < stream_id THEN -1 ELSE (at_ms - stream_id) / 60000 END AS minute,
           count(*) AS messages FROM chat_lines WHERE stream_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`),
      q(`SELECT stream_id, user_id, count(*) AS messages FROM chat_lines
         WHERE stream_id IS NOT NULL AND user_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`),
    ],
  };
}

let db: SqliteDatabase | undefined;
afterEach(() => db?.close());

describeSqlite('chat roll-ups', () => {
  it('equal a direct count of the lines after random inserts, repeats, moves and deletes', () => {
    db = driver!.open(':memory:');
    migrate(db, fakeClock());
    const rand = random(32);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
    const streams = [null, T0, T0 + 300 * MIN, T0 + 900 * MIN];
    const users = [null, 7, 8, 9, 10, 11];
    const insert = db.prepare(
      'INSERT OR IGNORE INTO chat_lines (key, at_ms, stream_id, user_id, username, content) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const at = (stream: number | null) => (stream ?? T0) + Math.floor((rand() - 0.1) * 200 * MIN);
    for (let step = 0; step < 4_000; step++) {
      const roll = rand();
      const stream = pick(streams);
      if (roll < 0.6) {
        // A key seen before is ignored, as a line delivered twice is: it must not count twice.
        insert.run(`k${Math.floor(rand() * 2_500)}`, at(stream), stream, pick(users), 'name', 'hello');
      } else if (roll < 0.75) {
        db.prepare('UPDATE chat_lines SET stream_id = ? WHERE key = ?').run(stream, `k${Math.floor(rand() * 2_500)}`);
      } else if (roll < 0.85) {
        const key = `k${Math.floor(rand() * 2_500)}`;
        db.prepare('UPDATE chat_lines SET user_id = ?, at_ms = ? WHERE key = ?').run(pick(users), at(stream), key);
      } else if (roll < 0.9) {
        // Another column only: no count changes.
        db.prepare('UPDATE chat_lines SET content = ? WHERE key = ?').run('edited', `k${Math.floor(rand() * 2_500)}`);
      } else if (roll < 0.99) {
        db.prepare('DELETE FROM chat_lines WHERE key = ?').run(`k${Math.floor(rand() * 2_500)}`);
      } else {
        db.prepare('DELETE FROM chat_lines WHERE at_ms < ?').run(at(stream));
      }
    }
    const { rollup, direct } = compare(db);
    expect((direct[0] as unknown[]).length).toBeGreaterThan(100);
    expect(rollup).toEqual(direct);
    // Nothing left at zero: a chatter with no line in a stream is no chatter of it.
    expect(db.prepare('SELECT count(*) AS n FROM stream_chatters WHERE messages <= 0').get()).toEqual({ n: 0 });
  });

  it('follow what the store writes, a line seen twice and the retention prune included', () => {
    db = driver!.open(':memory:');
    const clock = fakeClock(T0);
    migrate(db, clock);
    const store = createHistoryStore(db, { clock, chatRetentionDays: 1 });
    const rand = random(7);
    const records = [events.live(T0)];
    for (let i = 0; i < 600; i++) {
      records.push(events.chat(`m${Math.floor(rand() * 500)}`, 7 + Math.floor(rand() * 20), T0 + i * 20_000));
    }
    records.push(events.offline(T0, T0 + 601 * 20_000));
    records.forEach((r) => store.apply(r));
    const { rollup, direct } = compare(db);
    expect(rollup).toEqual(direct);
    const counts = createRollupQueries(db).streamChat(T0, T0);
    const lines = Number(db.prepare('SELECT count(*) AS n FROM chat_lines').get()!.n);
    expect(counts.minutes.reduce((sum, [, n]) => sum + n, 0)).toBe(lines);
    expect(counts.chatters.messages.reduce((sum, n) => sum + n, 0)).toBe(lines);
    clock.set(T0 + 3 * 24 * 60 * MIN);
    expect(store.prune()).toBe(lines);
    expect(compare(db).rollup).toEqual([[], []]);
  });
});

/**
 * The retention prune in batches ([history](../../../../docs/history.md#what-it-keeps)): it deletes a bounded
 * number of lines per transaction and awaits the injected yield between them, so the app answers meanwhile; the
 * counts end exactly as one `DELETE` of every old line leaves them, a line seen again between two batches is not
 * counted twice, and a store closed between batches stops the prune.
 */
import { afterEach, expect, it } from 'vitest';
import { migrate } from '../../../../electron/history/history-schema';
import { createHistoryStore, type HistoryStore } from '../../../../electron/history/history-store';
import type { SqliteDatabase } from '../../../../electron/history/sqlite-driver';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';
import { DAY, describeSqlite, driver, events, fakeClock, MIN, T0 } from './history-fixtures';

const LINES = 23;
const dbs: SqliteDatabase[] = [];
afterEach(() => {
  dbs.splice(0).forEach((db) => {
    try {
      db.close();
    } catch {
      // closed by the test already
    }
  });
});

/** Two streams a day apart, 23 lines in the old one from five viewers, 2 in the new one. */
function history(): JournalRecord[] {
  const old = Array.from({ length: LINES }, (_, i) => events.chat(`old-${i}`, 10 + (i % 5), T0 + (i + 1) * 7_000));
  const T1 = T0 + 2 * DAY;
  return [
    events.live(T0),
    ...old,
    events.offline(T0, T0 + 60 * MIN),
    events.live(T1),
    events.chat('new-0', 10, T1 + MIN),
    events.chat('new-1', 11, T1 + 2 * MIN),
  ];
}

/** A store holding {@link history}, its clock set so the first stream's chat is past one day's retention. */
function storeWithHistory(): { store: HistoryStore; db: SqliteDatabase; records: JournalRecord[] } {
  const db = driver!.open(':memory:');
  dbs.push(db);
  const clock = fakeClock(T0);
  migrate(db, clock);
  const store = createHistoryStore(db, { clock, chatRetentionDays: 1 });
  const records = history();
  records.forEach((r) => store.apply(r));
  clock.set(T0 + 2 * DAY + 3 * MIN);
  return { store, db, records };
}

/** Every count the roll-ups and the viewers keep, and how many lines are left. */
function counts(db: SqliteDatabase) {
  const q = (sql: string) => db.prepare(sql).all();
  return {
    minutes: q('SELECT stream_id, minute, messages FROM stream_chat_minutes ORDER BY stream_id, minute'),
    chatters: q('SELECT stream_id, user_id, messages FROM stream_chatters ORDER BY stream_id, user_id'),
    viewers: q('SELECT user_id, username, messages, last_seen_ms FROM viewers ORDER BY user_id'),
    lines: q('SELECT key FROM chat_lines ORDER BY key'),
  };
}

const left = (db: SqliteDatabase): number => Number(db.prepare('SELECT count(*) AS n FROM chat_lines').get()!.n);

describeSqlite('the retention prune in batches', () => {
  it('deletes at most a batch per transaction and yields between batches', async () => {
    const { store, db } = storeWithHistory();
    const atEachYield: number[] = [];
    const removed = await store.pruneInBatches(() => {
      atEachYield.push(left(db));
      return Promise.resolve();
    }, 5);
    expect(removed).toBe(LINES);
    // 25 lines: 5 deleted before each yield, the last 3 old ones in a batch that ends the prune.
    expect(atEachYield).toEqual([20, 15, 10, 5]);
    expect(left(db)).toBe(2);
  });

  it('leaves every count exactly as one DELETE of all the old lines does', async () => {
    const batched = storeWithHistory();
    const before = counts(batched.db);
    await batched.store.pruneInBatches(() => Promise.resolve(), 4);
    const reference = storeWithHistory();
    reference.db.exec(`DELETE FROM chat_lines WHERE at_ms < ${T0 + DAY + 3 * MIN}`);
    expect(counts(batched.db)).toEqual(counts(reference.db));
    expect(counts(batched.db).viewers).toEqual(before.viewers);
    expect(counts(batched.db).minutes).not.toEqual(before.minutes);
  });

  it('never counts twice an old line seen again between two batches', async () => {
    const { store, db, records } = storeWithHistory();
    const viewersBefore = counts(db).viewers;
    await store.pruneInBatches(() => {
      // The journal's copy of a line the prune already deleted, and of one it has not reached yet.
      store.apply(records[1]!);
      store.apply(records[LINES]!);
      return Promise.resolve();
    }, 5);
    expect(counts(db).viewers).toEqual(viewersBefore);
    expect(left(db)).toBe(2);
  });

  it('stops when the store is closed between batches', async () => {
    const { store } = storeWithHistory();
    const removed = await store.pruneInBatches(() => {
      store.close();
      return Promise.resolve();
    }, 5);
    expect(removed).toBe(5);
  });
});

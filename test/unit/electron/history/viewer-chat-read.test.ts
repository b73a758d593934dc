/**
 * One viewer's chat for their export ([history](../../../../docs/history.md#one-viewers-export)): the newest lines
 * up to the bound, oldest first, read in pages with a yield between them, and the file saying at its top which
 * lines it holds.
 */
import { afterEach, expect, it } from 'vitest';
import { migrate } from '../../../../electron/history/history-schema';
import { createHistoryStore, type HistoryStore } from '../../../../electron/history/history-store';
import type { SqliteDatabase } from '../../../../electron/history/sqlite-driver';
import { readViewerChat, VIEWER_EXPORT_CHAT_MAX } from '../../../../electron/history/viewer-chat-read';
import { chatInFile } from '../../../../electron/history/viewer-export';
import { describeSqlite, driver, events, fakeClock, MIN, T0 } from './history-fixtures';

let db: SqliteDatabase | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

/** 25 lines from viewer 42 (three pairs sharing a millisecond), and lines from others between them. */
function storeWithChat(): { store: HistoryStore; db: SqliteDatabase; texts: string[] } {
  db = driver!.open(':memory:');
  const clock = fakeClock(T0);
  migrate(db, clock);
  const store = createHistoryStore(db, { clock });
  store.apply(events.live(T0));
  const texts: string[] = [];
  for (let i = 0; i < 25; i++) {
    const atMs = i < 6 ? T0 + MIN + Math.floor(i / 2) : T0 + MIN + i * 1_000;
    texts.push(`line ${i}`);
    store.apply(events.chat(`v42-${i}`, 42, atMs, `line ${i}`));
    store.apply(events.chat(`other-${i}`, 7, T0 + MIN + i, `other ${i}`));
  }
  return { store, db, texts };
}

describeSqlite("reading one viewer's chat for the export", () => {
  it('keeps the newest lines up to the bound, oldest first, yielding between pages', async () => {
    const { db, texts } = storeWithChat();
    const yields: number[] = [];
    const read = await readViewerChat(
      db,
      42,
      () => {
        yields.push(yields.length);
        return Promise.resolve();
      },
      12,
      5,
    );
    expect(read.total).toBe(25);
    expect(read.lines.map((l) => l.content)).toEqual(texts.slice(-12));
    expect(read.lines.every((l) => l.userId === 42)).toBe(true);
    // Pages of 5, 5 and the last 2: a yield after each of the first two.
    expect(yields).toEqual([0, 1]);
  });

  it('reads every line once when the bound is not reached, ties in time included, and new lines meanwhile', async () => {
    const { store, db, texts } = storeWithChat();
    let n = 0;
    const read = await readViewerChat(
      db,
      42,
      () => {
        // A line the viewer writes while the export is read: newer than every page still to come.
        store.apply(events.chat(`during-${n++}`, 42, T0 + 60 * MIN, 'written meanwhile'));
        return Promise.resolve();
      },
      VIEWER_EXPORT_CHAT_MAX,
      4,
    );
    expect(read.lines.map((l) => l.content)).toEqual(texts);
    expect(read.total).toBe(25);
  });

  it('says at the top of the file which lines it holds', () => {
    expect(chatInFile(100_000, 1_000_000)).toBe('the newest 100,000 of 1,000,000 chat lines');
    expect(chatInFile(3, 3)).toBe('all 3 chat lines');
    expect(chatInFile(1, 1)).toBe('all 1 chat line');
    expect(chatInFile(0, 0)).toBe('all 0 chat lines');
  });
});

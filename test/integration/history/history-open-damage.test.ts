/**
 * Garbage over a store that was closed cleanly ([history](../../../docs/history.md#crash-safety-and-rebuild)): an
 * empty file, another program's database, and each page of a real store in turn. Whatever page it hits, the store is moved aside in one line
 * and rebuilt from the journal, holding what it held, or (for a store too big for the full check at every start)
 * the damage is found by the catch-up or by the first query that meets it, and the next start moves it aside.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { openHistory } from '../../../electron/history/history-open';
import { createRecapQueries } from '../../../electron/history/recap';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import {
  describeSqlite,
  driver,
  events,
  fakeClock,
  MIN,
  memoryJournal,
  T0,
} from '../../unit/electron/history/history-fixtures';
import { scriptedStream, storyOf, useDataFolder } from './history-fixtures';

const folder = useDataFolder();
const PAGE = 4096;

/** The scripted stream with 400 longer chat lines in it: a store of some 70 pages. */
function busyStream(): JournalRecord[] {
  const records = scriptedStream();
  const chat = Array.from({ length: 400 }, (_, i) =>
    events.chat(`bulk-${i}`, 30 + (i % 50), T0 + 20 * MIN + i, 'x'.repeat(300)),
  );
  records.splice(5, 0, ...chat);
  return records;
}

async function open(records: JournalRecord[], fullCheckMaxBytes?: number) {
  const lines: string[] = [];
  const opened = await openHistory({
    path: folder.path(),
    driver: driver!,
    clock: fakeClock(T0 + 120 * MIN),
    journal: memoryJournal(records),
    log: (line) => lines.push(line),
    ...(fullCheckMaxBytes === undefined ? {} : { fullCheckMaxBytes }),
  });
  return { ...opened, lines };
}

/** Everything a card or the recap reads; a query that meets damage throws. */
function everything(opened: Awaited<ReturnType<typeof open>>) {
  return { story: storyOf(opened.store), recap: createRecapQueries(opened.db).recap(T0, {}) };
}

/** Overwrites page `index` (its header kept, so it is not simply "not a database" unless it is page 1). */
function garble(clean: Buffer, index: number): void {
  const bytes = Buffer.from(clean);
  bytes.fill(0xa5, index * PAGE + (index === 0 ? 0 : 8), (index + 1) * PAGE);
  writeFileSync(folder.path(), bytes);
}

const REBUILT =
  /^history: \S+history\.sqlite: .+; moved it aside to history\.sqlite\.damaged(-\d+)? and rebuilt the stream history from the journal \(\d+ events\)$/;

describeSqlite('a damaged store that was closed cleanly', () => {
  it('moves an empty file aside in one line and rebuilds, instead of taking it for a new store', async () => {
    const records = scriptedStream();
    writeFileSync(folder.path(), '');
    const opened = await open(records);
    expect(opened.rebuilt).toBe('damaged');
    expect(opened.lines).toEqual([
      expect.stringMatching(
        /: it is empty \(0 bytes\); moved it aside to history\.sqlite\.damaged and rebuilt .* \(14 events\)$/,
      ),
    ]);
    expect(opened.store.viewer(10)?.messages).toBe(3);
    opened.store.close();
  });

  it("moves another program's database aside untouched, in one line, instead of writing our tables into it", async () => {
    const foreign = driver!.open(folder.path());
    foreign.exec('CREATE TABLE notes (text TEXT); CREATE TABLE "evil\nhistory: forged line" (x);');
    foreign.exec("INSERT INTO notes VALUES ('my own notes')");
    foreign.close();
    const before = readFileSync(folder.path());
    const opened = await open(scriptedStream());
    expect(opened.rebuilt).toBe('damaged');
    expect(opened.lines).toEqual([
      expect.stringMatching(
        /: it is another program's database, not a stream history \(its tables: evil history: forged line, notes\); moved it aside to history\.sqlite\.damaged and rebuilt .* \(14 events\)$/,
      ),
    ]);
    expect(readFileSync(`${folder.path()}.damaged`).equals(before)).toBe(true);
    expect(opened.store.viewer(12)?.kicks).toBe(250);
    opened.store.close();
  });

  it('finds garbage over any one page at start, moves the store aside in one line, and rebuilds it the same', async () => {
    const records = busyStream();
    const first = await open(records);
    const expected = everything(first);
    first.store.close();
    const clean = readFileSync(folder.path());
    expect(clean.length / PAGE).toBeGreaterThan(60);
    for (let index = 0; index < clean.length / PAGE; index++) {
      garble(clean, index);
      const opened = await open(records);
      expect({ page: index + 1, rebuilt: opened.rebuilt }).toEqual({ page: index + 1, rebuilt: 'damaged' });
      expect(opened.lines).toEqual([expect.stringMatching(REBUILT)]);
      expect(everything(opened)).toEqual(expected);
      opened.store.close();
    }
  }, 120_000);

  it('in a store too big for the full check at every start, the catch-up or the first query finds it', async () => {
    const records = busyStream();
    const first = await open(records);
    const expected = everything(first);
    first.store.close();
    const clean = readFileSync(folder.path());
    const found = { atOpen: 0, byQuery: 0, harmless: 0 };
    for (let index = 1; index < clean.length / PAGE; index++) {
      garble(clean, index);
      const opened = await open(records, 0);
      if (opened.rebuilt !== null) {
        found.atOpen++;
        expect(opened.lines).toEqual([expect.stringMatching(REBUILT)]);
        expect(everything(opened)).toEqual(expected);
        opened.store.close();
        continue;
      }
      let read: ReturnType<typeof everything> | null = null;
      try {
        read = everything(opened);
      } catch (error) {
        expect(String(error)).toMatch(/malformed/);
      }
      opened.store.close();
      if (read !== null) {
        // Damage no query reads (a page SQLite no longer uses): what the store holds is whole.
        found.harmless++;
        expect(read).toEqual(expected);
        continue;
      }
      found.byQuery++;
      // The query that met it marked the store: the next start runs the full check, whatever the size.
      const again = await open(records, 0);
      expect(again.rebuilt).toBe('damaged');
      expect(again.lines).toEqual([expect.stringMatching(REBUILT)]);
      expect(everything(again)).toEqual(expected);
      again.store.close();
    }
    expect(found.byQuery).toBeGreaterThan(0);
    expect(found.atOpen).toBeGreaterThan(0);
  }, 120_000);
});

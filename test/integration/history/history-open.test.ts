import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { openHistory } from '../../../electron/history/history-open';
import { PRUNE_BATCH_ROWS } from '../../../electron/history/history-store';
import {
  describeSqlite,
  driver,
  events,
  fakeClock,
  MIN,
  memoryJournal,
  T0,
} from '../../unit/electron/history/history-fixtures';
import { open, scriptedStream, storyOf, useDataFolder } from './history-fixtures';

const folder = useDataFolder();

/** The story of a store that followed the stream live and was closed cleanly. */
async function liveStory(path: string, records: JournalRecord[]) {
  const { store } = await open(path, []);
  records.forEach((r) => store.apply(r));
  const story = storyOf(store);
  store.close();
  return story;
}

describeSqlite('opening the history store', () => {
  it('builds a missing store from the journal in one line, holding what the live path would', async () => {
    const records = scriptedStream();
    const expected = await liveStory(join(folder.dir(), 'live.sqlite'), records);
    const { store, rebuilt, caughtUp, lines } = await open(folder.path(), records);
    expect(rebuilt).toBe('missing');
    expect(caughtUp).toBe(14);
    expect(lines).toEqual(['history: there was no stream history yet; built it from the journal (14 events)']);
    expect(storyOf(store)).toEqual(expected);
    store.close();
  });

  it('reopens a cleanly closed store quietly, applying only what the journal gained', async () => {
    const records = scriptedStream();
    (await open(folder.path(), records.slice(0, 5))).store.close();
    const again = await open(folder.path(), records);
    expect(again).toMatchObject({ rebuilt: null, caughtUp: 9, lines: [] });
    expect(again.store.viewer(10)?.messages).toBe(3);
    again.store.close();
  });

  it('moves a file that is not a database aside in one line and rebuilds it the same', async () => {
    const records = scriptedStream();
    const expected = await liveStory(join(folder.dir(), 'live.sqlite'), records);
    writeFileSync(folder.path(), 'my notes, saved here by mistake\n'.repeat(200));
    const { store, rebuilt, lines } = await open(folder.path(), records);
    expect(rebuilt).toBe('damaged');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^history: .*history\.sqlite: it could not be read \(.*not a database.*\); moved it aside to history\.sqlite\.damaged and rebuilt the stream history from the journal \(14 events\)$/,
    );
    expect(readFileSync(`${folder.path()}.damaged`, 'utf8')).toMatch(/^my notes/);
    expect(storyOf(store)).toEqual(expected);
    store.close();
  });

  it("runs SQLite's full check after a run that did not close cleanly, and rebuilds from damage it finds", async () => {
    const { store } = await open(folder.path(), scriptedStream());
    for (let i = 0; i < 400; i++) {
      store.apply(events.chat(`bulk-${i}`, 30 + (i % 50), T0 + 20 * MIN + i, 'x'.repeat(300)));
    }
    store.close();
    const raw = driver!.open(folder.path());
    const index = raw.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'chat_lines_user'").get();
    raw.exec("UPDATE meta SET value = '0' WHERE name = 'closed_cleanly'"); // as a killed run leaves it
    raw.close();
    // Damage only an index, which the quick reads at every start do not touch; the full check does.
    const bytes = readFileSync(folder.path());
    const page = (Number(index?.rootpage) - 1) * 4096;
    bytes.fill(0xa5, page + 8, page + 4096);
    writeFileSync(folder.path(), bytes);
    const again = await open(folder.path(), scriptedStream());
    expect(again.rebuilt).toBe('damaged');
    expect(again.lines).toHaveLength(1);
    expect(again.lines[0]).toMatch(
      /^history: \S+history\.sqlite: it could not be read \(SQLite's check found damage: Tree \d+ page \d+[^\n]*\); moved it aside to history\.sqlite\.damaged and rebuilt the stream history from the journal \(14 events\)$/,
    );
    expect(again.store.viewer(10)?.messages).toBe(3);
    again.store.close();
  });

  it('moves a link planted at the store aside without touching what it points at', async () => {
    const elsewhere = join(folder.dir(), 'precious.txt');
    writeFileSync(elsewhere, 'not yours');
    symlinkSync(elsewhere, folder.path());
    const { store, lines } = await open(folder.path(), scriptedStream());
    expect(lines[0]).toMatch(/it is a link to another file, which Greenroom does not follow; moved it aside/);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not yours');
    expect(store.viewer(12)?.kicks).toBe(250);
    store.close();
  });

  it('moves a folder standing at the store aside', async () => {
    mkdirSync(folder.path());
    const { store, lines } = await open(folder.path(), []);
    expect(lines[0]).toMatch(/it is not a file; moved it aside to history\.sqlite\.damaged/);
    store.close();
  });

  it('keeps a store from a newer Greenroom aside, untouched, and rebuilds one this build can write', async () => {
    (await open(folder.path(), [])).store.close();
    const raw = driver!.open(folder.path());
    raw.exec('INSERT INTO schema_versions VALUES (9, 1)');
    raw.close();
    const { store, lines } = await open(folder.path(), scriptedStream());
    expect(lines[0]).toMatch(
      /written by a newer Greenroom \(schema version 9, this one knows up to 4\); moved it aside/,
    );
    const kept = driver!.open(`${folder.path()}.damaged`);
    expect(kept.prepare('SELECT max(version) AS v FROM schema_versions').get()).toEqual({ v: 9 });
    kept.close();
    store.close();
  });

  it('sets a write-ahead log left without its store aside, so it is never read into the new one', async () => {
    writeFileSync(`${folder.path()}-wal`, Buffer.alloc(4096, 7));
    const { store, rebuilt } = await open(folder.path(), scriptedStream());
    expect(rebuilt).toBe('missing');
    expect(readdirSync(folder.dir()).sort()).toContain('history.sqlite.orphan-wal');
    expect(store.viewer(11)?.subMonths).toBe(2);
    store.close();
    expect(existsSync(folder.path())).toBe(true);
  });

  it('reads past a write-ahead log of garbage beside a sound store, keeping the store', async () => {
    const records = scriptedStream();
    (await open(folder.path(), records)).store.close();
    writeFileSync(`${folder.path()}-wal`, Buffer.alloc(64 * 1024, 0x5a));
    const { store, rebuilt, lines } = await open(folder.path(), records);
    expect({ rebuilt, lines }).toEqual({ rebuilt: null, lines: [] });
    expect(store.viewer(10)?.messages).toBe(3);
    store.close();
  });

  it('prunes old chat at open and keeps the counts', async () => {
    const { store } = await open(folder.path(), scriptedStream(), T0 + 91 * 24 * 60 * MIN);
    expect(store.chatLines()).toEqual([]);
    expect(store.viewer(10)?.messages).toBe(3);
    expect(store.events().length).toBe(8);
    store.close();
  });

  it('prunes at open in batches, letting the app answer between them', async () => {
    const chat = Array.from({ length: 2 * PRUNE_BATCH_ROWS + 7 }, (_, i) =>
      events.chat(`bulk-${i}`, 10 + (i % 3), T0 + MIN + i),
    );
    const records = [events.live(T0), ...chat, events.offline(T0, T0 + 60 * MIN)];
    /** Chat lines on disk when the prune yields. */
    function linesLeft(): number {
      const db = driver!.open(folder.path());
      try {
        return Number(db.prepare('SELECT count(*) AS n FROM chat_lines').get()!.n);
      } finally {
        db.close();
      }
    }
    const yields: number[] = [];
    const opened = await openHistory({
      path: folder.path(),
      driver: driver!,
      clock: fakeClock(T0 + 91 * 24 * 60 * MIN),
      journal: memoryJournal(records),
      log: () => undefined,
      yieldNow: () => {
        yields.push(linesLeft());
        return Promise.resolve();
      },
    });
    expect(yields).toEqual([PRUNE_BATCH_ROWS + 7, 7]);
    expect(opened.store.chatLines()).toEqual([]);
    expect([10, 11, 12].map((id) => opened.store.viewer(id)?.messages)).toEqual([3336, 3336, 3335]);
    opened.store.close();
  });
});

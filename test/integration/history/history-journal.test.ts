import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createFileJournal } from '../../../electron/webhooks/journal/journal';
import { openHistory } from '../../../electron/history/history-open';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { describeSqlite, driver, events, fakeClock, MIN, T0 } from '../../unit/electron/history/history-fixtures';
import { useDataFolder } from './history-fixtures';

const folder = useDataFolder();

/** A stream of 400 chat lines from 40 viewers with a follow every 50 lines, as the receiver journals it. */
function longStream(): JournalRecord[] {
  const records = [events.live(T0)];
  for (let i = 0; i < 400; i++) {
    records.push(events.chat(`long-${i}`, 200 + (i % 40), T0 + MIN + i * 1000, `line ${i} `.padEnd(120, '.')));
    if (i % 50 === 0) {
      records.push(events.follow(300 + i / 50, T0 + MIN + i * 1000));
    }
  }
  return records;
}

/** The real file journal with a tiny rollover, so it drops its oldest segments during the stream. */
const smallJournal = () =>
  createFileJournal({ dir: join(folder.dir(), 'journal'), maxSegmentBytes: 16 * 1024, maxSegments: 2, fsync: 'never' });

async function openOn(journal: Awaited<ReturnType<typeof smallJournal>>) {
  const lines: string[] = [];
  const opened = await openHistory({
    path: join(folder.dir(), 'history.sqlite'),
    driver: driver!,
    clock: fakeClock(T0 + 60 * MIN),
    journal,
    log: (line) => lines.push(line),
  });
  return { ...opened, lines };
}

describeSqlite('history store beside the real journal', () => {
  it('keeps the whole stream when the journal rolls over during it, across a restart', async () => {
    const journal = await smallJournal();
    const { store } = await openOn(journal);
    for (const record of longStream()) {
      await journal.append(record);
      store.apply(record);
    }
    store.close();
    const kept = await journal.readAll();
    expect(kept.length).toBeLessThan(200); // the journal lost the first half of the stream

    const again = await openOn(journal);
    expect(again).toMatchObject({ rebuilt: null, caughtUp: 0, lines: [] });
    expect(again.store.chatLines()).toHaveLength(400);
    expect(again.store.streams()).toHaveLength(1);
    expect(again.store.viewer(200)?.messages).toBe(10);
    expect(again.store.viewer(301)?.followedAtMs).toBe(T0 + MIN + 50_000);
    again.store.close();
    await journal.close();
  });

  it('rebuilds a deleted store from what the journal still holds, each event once', async () => {
    const journal = await smallJournal();
    const records = longStream();
    for (const record of records) {
      await journal.append(record);
    }
    const kept = await journal.readAll();
    rmSync(join(folder.dir(), 'history.sqlite'), { force: true });

    const { store, rebuilt, caughtUp, lines } = await openOn(journal);
    expect(rebuilt).toBe('missing');
    expect(caughtUp).toBe(kept.length);
    expect(lines).toEqual([
      `history: there was no stream history yet; built it from the journal (${kept.length} events)`,
    ]);
    const keptChat = kept.filter((r) => r.type === 'chat.message.sent');
    expect(store.chatLines().map((l) => l.content)).toEqual(
      keptChat.map((r) => (JSON.parse(r.body) as { content: string }).content),
    );
    // Opening again over the same journal adds nothing.
    store.close();
    const again = await openOn(journal);
    expect(again.caughtUp).toBe(0);
    expect(again.store.chatLines()).toHaveLength(keptChat.length);
    again.store.close();
    await journal.close();
  });

  it('writes the store in write-ahead-log mode', async () => {
    const journal = await smallJournal();
    (await openOn(journal)).store.close();
    const raw = driver!.open(join(folder.dir(), 'history.sqlite'));
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    raw.close();
    await journal.close();
  });
});

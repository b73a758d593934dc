/** Shared by the history store's integration tests: a scripted stream, a data folder, and a store's whole story. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openHistory } from '../../../electron/history/history-open';
import type { HistoryStore } from '../../../electron/history/history-store';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { driver, events, fakeClock, MIN, memoryJournal, T0 } from '../../unit/electron/history/history-fixtures';

/** A short stream: live, chat from three viewers, a follow, a sub, gifts, KICKs, a title change, offline. */
export function scriptedStream(): JournalRecord[] {
  return [
    events.live(T0),
    ...[10, 11, 12, 10, 11, 10].map((id, i) => events.chat(`line-${i}`, id, T0 + (i + 1) * MIN)),
    events.follow(12, T0 + 10 * MIN),
    events.sub(11, 2, T0 + 11 * MIN),
    events.gifts(10, [20, 21, 22], T0 + 12 * MIN),
    events.kicks(12, 250, T0 + 13 * MIN),
    events.metadata('Late night', 'Chess', T0 + 14 * MIN),
    events.ban(13, T0 + 15 * MIN),
    events.offline(T0, T0 + 90 * MIN),
  ];
}

/** Everything a recap or a user card could read, to compare two stores. */
export function storyOf(store: HistoryStore) {
  return {
    streams: store.streams(),
    changes: store.streamChanges(T0),
    events: store.events(),
    chat: store.chatLines(),
    viewers: [10, 11, 12, 13, 20].map((id) => store.viewer(id)),
  };
}

/** A fresh data folder per test, removed afterwards. */
export function useDataFolder(): { dir: () => string; path: () => string } {
  let dir = '';
  afterEach(() => {
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
    }
    dir = '';
  });
  return {
    dir: () => (dir ||= mkdtempSync(join(tmpdir(), 'greenroom-history-'))),
    path: () => join((dir ||= mkdtempSync(join(tmpdir(), 'greenroom-history-'))), 'history.sqlite'),
  };
}

/** Opens the store at `path` over a journal holding `records`; the lines it logged are returned too. */
export async function open(path: string, records: JournalRecord[], clockMs = T0 + 2 * 60 * MIN) {
  const lines: string[] = [];
  const opened = await openHistory({
    path,
    driver: driver!,
    clock: fakeClock(clockMs),
    journal: memoryJournal(records),
    log: (line) => lines.push(line),
  });
  return { ...opened, lines };
}

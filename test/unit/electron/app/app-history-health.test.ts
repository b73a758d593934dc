/**
 * The stream history as Health shows it (docs/history.md#in-health): keeping the history (its size on disk, the
 * streams it keeps, its oldest chat line), starting (the journal records it reads through), unavailable because this
 * Node is too old or the store could not be opened, and a damaged store moved aside.
 */
import { writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppHistory, HISTORY_FILE, type AppHistoryDeps } from '../../../../electron/app/app-history';
import { newestMovedAside, sizeOnDisk } from '../../../../electron/history/history-facts';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';
import { describeSqlite, driver, events, fakeClock, MIN, T0 } from '../history/history-fixtures';
import { tempDir } from '../../../helpers/temp-dir';

function setup(journal: JournalRecord[], over: Partial<AppHistoryDeps> = {}) {
  const deps: AppHistoryDeps = {
    dataDir: tempDir('greenroom-history-health-'),
    clock: fakeClock(T0 + 10 * MIN),
    chatDays: () => 30,
    onSettingsChange: () => () => undefined,
    journal: { readAll: () => Promise.resolve([...journal]), onAppended: () => () => undefined },
    driver,
    modLog: () => [],
    push: () => undefined,
    statusChanged: () => undefined,
    setTimer: () => ({ cancel: () => undefined }),
    log: () => undefined,
    ...over,
  };
  return { deps, history: createAppHistory(deps) };
}

describe('the history in Health without node:sqlite', () => {
  it('says it needs a newer Node, and nothing about a store that is not there', async () => {
    const { history } = setup([], { driver: null });
    await history.open();
    expect(history.health()).toMatchObject({
      state: 'unavailable',
      unavailableBecause: 'needs-newer-node',
      detail: expect.stringMatching(/node:sqlite/),
      sizeBytes: null,
      streams: null,
      oldestChatMs: null,
      movedAside: null,
    });
  });

  it('tells the streamer and the terminal what to do to have the history, not only what is missing', async () => {
    const lines: string[] = [];
    const { history } = setup([], { driver: null, log: (line: string) => lines.push(line) });
    await history.open();
    const message = history.status().message ?? '';
    expect(message).toContain('Greenroom runs them on Node 24 when it can download it');
    expect(message).not.toContain('`'); // read in the panel, where a backtick is only a backtick
    expect(message).toContain('Node 22.13 or later');
    expect(message).not.toContain('this copy of Greenroom');
    expect(lines.join('\n')).toMatch(/node:sqlite needs Node 22\.13 or later; this is Node [\d.]+\); .*npm start/);
    expect(lines.join('\n')).toContain('bash scripts/ensure-node24.sh');
  });
});

describe('the damaged stores in the data folder', () => {
  it('names the newest one moved aside, never a side file', () => {
    const dir = tempDir('greenroom-history-aside-');
    const path = join(dir, HISTORY_FILE);
    expect(newestMovedAside(path)).toBeNull();
    for (const name of ['.damaged', '.damaged-wal', '.damaged-2', '.damaged-10', '.damaged-10-wal', '.damagedx']) {
      writeFileSync(path + name, 'x');
    }
    expect(newestMovedAside(path)).toBe(`${HISTORY_FILE}.damaged-10`);
    expect(newestMovedAside(join(dir, 'missing', HISTORY_FILE))).toBeNull();
  });

  it('counts the store and its side files on disk', () => {
    const dir = tempDir('greenroom-history-size-');
    const path = join(dir, HISTORY_FILE);
    expect(sizeOnDisk(path)).toBe(0);
    writeFileSync(path, 'abc');
    writeFileSync(`${path}-wal`, 'de');
    expect(sizeOnDisk(path)).toBe(5);
  });
});

describeSqlite('the history in Health', () => {
  const journal = [
    events.chat('early', 5, T0 - 5 * MIN),
    events.live(T0),
    events.chat('a', 7, T0 + MIN),
    events.chat('b', 8, T0 + 2 * MIN),
    events.offline(T0, T0 + 3 * MIN),
    events.live(T0 + 60 * MIN),
  ];

  it('keeps the history: its size on disk, the streams kept and the oldest chat line', async () => {
    const { history, deps } = setup(journal);
    await history.open();
    const health = history.health();
    expect(health).toMatchObject({ state: 'ready', streams: 2, oldestChatMs: T0 - 5 * MIN, chatDays: 30 });
    const path = join(deps.dataDir, HISTORY_FILE);
    expect(health.sizeBytes).toBe(statSync(path).size + statSync(`${path}-wal`).size + statSync(`${path}-shm`).size);
    expect(health.sizeBytes).toBeGreaterThan(0);
    expect(health.movedAside).toBeNull();
    history.close();
  });

  it('while starting, says how many journal events it reads through', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const statuses: (number | null | undefined)[] = [];
    const { history } = setup(journal, {
      journal: {
        readAll: async () => (await gate, [...journal]),
        onAppended: () => () => undefined,
      },
      statusChanged: () => statuses.push(history.health().catchingUp),
    });
    const opening = history.open();
    expect(history.health()).toMatchObject({ state: 'starting', catchingUp: null, sizeBytes: null });
    release();
    await opening;
    expect(statuses).toContain(journal.length);
    expect(history.health()).toMatchObject({ state: 'ready', catchingUp: null });
    history.close();
  });

  it('names the damaged store it moved aside, and keeps the history rebuilt', async () => {
    const first = setup(journal);
    writeFileSync(join(first.deps.dataDir, HISTORY_FILE), 'not a database, garbage bytes '.repeat(200));
    await first.history.open();
    expect(first.history.health()).toMatchObject({
      state: 'ready',
      movedAside: `${HISTORY_FILE}.damaged`,
      streams: 2,
    });
    first.history.close();
    // The next run found a sound store: nothing was moved aside this time.
    const again = createAppHistory(first.deps);
    await again.open();
    expect(again.health()).toMatchObject({ state: 'ready', movedAside: null, streams: 2 });
    again.close();
  });

  it('says the store could not be opened when the folder refuses it', async () => {
    const { history } = setup(journal, { dataDir: join(tmpdir(), 'greenroom-no-such-folder', 'deeper') });
    await history.open();
    expect(history.health()).toMatchObject({ state: 'unavailable', unavailableBecause: 'could-not-open' });
  });
});

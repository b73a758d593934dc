import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createAppHistory,
  HISTORY_FILE,
  HISTORY_KEEP_MS,
  HISTORY_PRUNE_MS,
  HISTORY_PUSH_MS,
  type AppHistoryDeps,
} from '../../../../electron/app/app-history';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';
import type { HistoryChangedView } from '../../../../shared/history';
import { DAY, describeSqlite, driver, events, fakeClock, MIN, record, T0 } from '../history/history-fixtures';
import { tempDir } from '../../../helpers/temp-dir';

/** The history over a journal in memory, timers run by hand, the settings' days in a variable. */
function setup(over: Partial<AppHistoryDeps> = {}) {
  const written: JournalRecord[] = [];
  const listeners = new Set<(r: JournalRecord) => void>();
  const timers: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  const settingsListeners = new Set<() => void>();
  const pushes: HistoryChangedView[] = [];
  const logs: string[] = [];
  const clock = fakeClock(T0 + 10 * MIN);
  let days = 90;
  const deps: AppHistoryDeps = {
    dataDir: tempDir('greenroom-app-history-'),
    clock,
    chatDays: () => days,
    onSettingsChange: (l) => (settingsListeners.add(l), () => settingsListeners.delete(l)),
    journal: {
      readAll: () => Promise.resolve([...written]),
      onAppended: (l) => (listeners.add(l), () => listeners.delete(l)),
    },
    driver,
    modLog: () => [],
    push: (view) => pushes.push(view),
    statusChanged: () => undefined,
    setTimer: (fn, ms) => {
      const timer = { fn, ms, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
    log: (line) => logs.push(line),
    ...over,
  };
  const history = createAppHistory(deps);
  /** As the journal does: written, then told. */
  const write = (r: JournalRecord) => {
    written.push(r);
    listeners.forEach((l) => l(r));
  };
  const run = (ms: number) => timers.filter((t) => t.ms === ms && !t.cancelled).forEach((t) => t.fn());
  const setDays = (d: number) => ((days = d), settingsListeners.forEach((l) => l()));
  /** The wait is over: what was journaled meanwhile is kept. */
  const endTurn = () => run(HISTORY_KEEP_MS);
  return { history, deps, write, run, endTurn, setDays, pushes, logs, clock, written };
}

describe('the app without node:sqlite', () => {
  it('says so once, answers every question HistoryUnavailable, and never throws', async () => {
    const { history, logs, pushes } = setup({ driver: null });
    await history.open();
    expect(history.status()).toMatchObject({
      state: 'unavailable',
      message: expect.stringMatching(/not kept in this run: they need Node 22\.13 or later/),
    });
    expect(history.status().detail).toMatch(/node:sqlite/);
    expect(logs).toHaveLength(1);
    expect(pushes.at(-1)?.status.state).toBe('unavailable');
    for (const ask of [() => history.streams(), () => history.recap(T0), () => history.search('a')]) {
      expect(ask).toThrow(expect.objectContaining({ code: 'HistoryUnavailable' }));
    }
    history.close();
  });
});

describeSqlite('the history in the app', () => {
  it('keeps what arrives while it opens, once, and skips records it does not know', async () => {
    const { history, write } = setup();
    write(events.live(T0));
    const opening = history.open();
    expect(history.status().state).toBe('starting');
    expect(() => history.streams()).toThrow(expect.objectContaining({ code: 'HistoryUnavailable' }));
    write(events.follow(7, T0 + MIN));
    write(record('greenroom.raid', { from: 'someone', viewers: 5 }, T0 + MIN));
    write(record('greenroom.late-mark', { messageId: 'x' }, T0 + MIN));
    write(record('kick.something-new', { a: 1 }, T0 + MIN));
    await opening;
    write(events.chat('c1', 7, T0 + 2 * MIN));
    expect(history.status()).toMatchObject({ state: 'ready', liveStreamId: T0 });
    const recap = history.recap(T0);
    expect(recap.followers.map((f) => f.userId)).toEqual([7]);
    expect(recap.figures.messages).toBe(1);
    expect(history.viewer(7)).toMatchObject({ messages: 1, followedAtMs: T0 + MIN });
    history.close();
  });

  it('tells the panel at once when a stream ends, and batches the rest', async () => {
    const { history, write, run, endTurn, pushes } = setup();
    await history.open();
    write(events.live(T0));
    expect(pushes.at(-1)).toMatchObject({ what: 'streams', endedStreamId: null });
    const before = pushes.length;
    write(events.chat('c1', 7, T0 + MIN));
    write(events.chat('c2', 8, T0 + MIN));
    endTurn();
    expect(pushes).toHaveLength(before);
    run(HISTORY_PUSH_MS);
    expect(pushes).toHaveLength(before + 1);
    write(events.offline(T0, T0 + 30 * MIN));
    expect(pushes.at(-1)).toMatchObject({ what: 'streams', endedStreamId: T0 });
    history.close();
  });

  it('joins the stream Kick says is live at start, once', async () => {
    const { history, write } = setup();
    history.liveStatus({ live: true, confirmed: true, startedAtMs: T0, title: 'Already on', category: '' });
    await history.open();
    write(events.live(T0));
    expect(history.streams()).toHaveLength(1);
    expect(history.streams()[0]).toMatchObject({ startedAtMs: T0, endedAtMs: null });
    history.close();
  });

  it('deletes chat past the days on its timer and again when the days change', async () => {
    const { history, write, run, setDays, clock } = setup();
    write(events.live(T0));
    write(events.chat('old', 7, T0 + MIN));
    await history.open();
    clock.set(T0 + 40 * DAY);
    write(events.chat('new', 8, T0 + 40 * DAY));
    setDays(30);
    await expect.poll(() => history.status().state).toBe('ready');
    expect(history.recap(T0).figures.messages).toBe(1);
    expect(history.viewer(7)).toMatchObject({ messages: 1 });
    clock.set(T0 + 75 * DAY);
    run(HISTORY_PRUNE_MS);
    expect(history.recap(T0).figures.messages).toBe(0);
    expect(history.status().chatDays).toBe(30);
    history.close();
  });

  it('closes on quit and leaves the rest to the next start', async () => {
    const first = setup();
    await first.history.open();
    first.write(events.live(T0));
    first.history.close();
    first.write(events.follow(9, T0 + MIN));
    expect(existsSync(join(first.deps.dataDir, HISTORY_FILE))).toBe(true);
    const again = createAppHistory({ ...first.deps, log: () => undefined });
    await again.open();
    expect(again.recap(T0).followers.map((f) => f.userId)).toEqual([9]);
    again.close();
  });

  it('keeps what comes within a few ms in one go, and a question asked meanwhile sees them', async () => {
    const { history, deps, write, endTurn } = setup();
    await history.open();
    write(events.live(T0));
    const other = driver!.open(join(deps.dataDir, HISTORY_FILE));
    const lines = () => Number(other.prepare('SELECT COUNT(*) AS n FROM chat_lines').get()!.n);
    write(events.chat('c1', 7, T0 + MIN));
    write(events.chat('c2', 8, T0 + MIN));
    expect(lines()).toBe(0);
    endTurn();
    expect(lines()).toBe(2);
    write(events.chat('c3', 9, T0 + 2 * MIN));
    expect(history.recap(T0).figures.messages).toBe(3);
    other.close();
    history.close();
  });

  it('keeps what came before a stream ends in that stream, and what came after in none', async () => {
    const { history, write, endTurn, pushes } = setup();
    await history.open();
    write(events.live(T0));
    write(events.chat('c1', 7, T0 + MIN));
    write(events.offline(T0, T0 + 30 * MIN));
    expect(pushes.at(-1)).toMatchObject({ what: 'streams', endedStreamId: T0 });
    write(events.chat('c2', 8, T0 + 31 * MIN));
    endTurn();
    expect(history.recap(T0).figures.messages).toBe(1);
    expect(history.viewer(8)).toMatchObject({ messages: 1 });
    history.close();
  });

  it('keeps what is still waiting when it closes on quit', async () => {
    const first = setup();
    await first.history.open();
    first.write(events.live(T0));
    first.write(events.chat('c1', 7, T0 + MIN));
    first.history.close();
    // A journal that has lost it (the catch-up cannot bring it back): only the store can still have it.
    const journal = { readAll: () => Promise.resolve([]), onAppended: () => () => undefined };
    const again = createAppHistory({ ...first.deps, journal, log: () => undefined });
    await again.open();
    expect(again.recap(T0).figures.messages).toBe(1);
    again.close();
  });
});

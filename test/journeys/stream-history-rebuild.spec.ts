/**
 * Journey: the stream history outlives the journal's rollover and the store's loss
 * ([history](../../docs/history.md#crash-safety-and-rebuild)). The built app runs on Node 24 against its embedded
 * sandbox, signed in from the panel in Chromium.
 *
 * - With the journal's segments made tiny (`GREENROOM_JOURNAL_SEGMENT_KB`, two kept), a stream's activity rolls it
 *   over many times and deletes the old segments while the stream runs, across a restart mid-stream: the recap
 *   still equals what the sandbox sent, item by item; with the journal's files deleted after the stream, the recap,
 *   the streams list and the cards are as they were.
 * - The store's files deleted while the app is stopped: the next start rebuilds it from the journal, says so in one
 *   plain line, and the recap, the streams list and every card in the recap are the same as before, field for field.
 * - The store overwritten with garbage: moved aside (kept, byte for byte) in one plain line, rebuilt, the same recap;
 *   and garbage over one page in the middle of a store closed cleanly: found at start, the same again.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedRecap, recapLists } from '../integration/app/history-app-fixtures';
import { killLeftovers } from './app-process';
import { launchChromium } from './panel';
import { HistoryRun, WAIT } from './stream-history-rebuild-fixtures';

describe('journey: the stream history outlives the journal and the store', () => {
  let browser: Browser;
  const dirs: string[] = [];
  const runs: HistoryRun[] = [];
  const newRun = (env: Record<string, string> = {}): HistoryRun => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-journey-history-'));
    dirs.push(dir);
    const run = new HistoryRun(dir, env);
    runs.push(run);
    return run;
  };

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    for (const run of runs) {
      run.panel?.close();
    }
    await browser?.close();
    await killLeftovers();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it('keeps the recap exact while the journal rolls over and deletes old segments mid-stream', async () => {
    const run = newRun({ GREENROOM_JOURNAL_SEGMENT_KB: '16', GREENROOM_JOURNAL_SEGMENTS: '2' });
    await run.start(browser);
    const streamId = await run.goLive();
    await run.activity(0);
    await run.chatInSteps(streamId, 800, 100);
    await expect.poll(async () => recapLists(await run.recap(streamId)), WAIT).toEqual(expectedRecap(run.fired));
    // Rolled over, and the oldest segments are gone: the journal no longer holds the stream's start.
    const rolled = run.segments();
    expect(rolled.length).toBeLessThanOrEqual(2);
    expect(rolled[0]).not.toBe('journal-000001.log');

    await run.stop();
    await run.start(browser);
    expect((await run.status()).liveStreamId).toBe(streamId);
    expect(recapLists(await run.recap(streamId))).toEqual(expectedRecap(run.fired));

    await run.activity(0);
    await run.chatInSteps(streamId, 800, 100);
    await run.goOffline();
    const expected = expectedRecap(run.fired);
    expect(expected.messages).toBe(1600);
    await expect.poll(async () => recapLists(await run.recap(streamId)), WAIT).toEqual(expected);
    expect(run.segments()[0]! > rolled.at(-1)!).toBe(true);
    const before = await run.everything(streamId);

    // The journal's files gone altogether between runs: the history does not need them.
    await run.stop();
    run.deleteJournal();
    await run.start(browser);
    expect(await run.everything(streamId)).toEqual(before);
    expect(run.historyLines()).toEqual([]);
    await run.stop();
  }, 300_000);

  it('rebuilds a deleted store, then a store of garbage, from the journal with the same recap', async () => {
    const run = newRun();
    await run.start(browser);
    const streamId = await run.goLive();
    await run.activity(600, 120);
    await run.goOffline();
    await expect.poll(async () => recapLists(await run.recap(streamId)), WAIT).toEqual(expectedRecap(run.fired));
    const before = await run.everything(streamId);
    expect(before.cards.length).toBeGreaterThan(50);
    await run.stop();

    run.deleteStore();
    await run.start(browser);
    const events = run.fired.length;
    expect(run.historyLines()).toEqual([
      expect.stringMatching(/^history: there was no stream history yet; built it from the journal \(\d+ events\)$/),
    ]);
    expect(Number(/\((\d+) events\)/.exec(run.historyLines()[0]!)![1])).toBeGreaterThanOrEqual(events);
    expect(await run.everything(streamId)).toEqual(before);
    await run.stop();

    const store = join(run.dataDir, 'history.sqlite');
    const garbage = Buffer.alloc(256 * 1024);
    for (let i = 0; i < garbage.length; i++) {
      garbage[i] = (i * 131 + 7) % 251;
    }
    writeFileSync(store, garbage);
    await run.start(browser);
    expect(run.historyLines()).toEqual([
      expect.stringMatching(
        /^history: \S+history\.sqlite: it could not be read \([^)]*\); moved it aside to history\.sqlite\.damaged and rebuilt the stream history from the journal \(\d+ events\)$/,
      ),
    ]);
    expect(readFileSync(`${store}.damaged`).equals(garbage)).toBe(true);
    expect(await run.everything(streamId)).toEqual(before);
    await run.stop();

    // Garbage over one page in the middle of the store the last run closed cleanly: found at start, not by a recap.
    const sound = readFileSync(store);
    const middle = Math.floor(sound.length / 4096 / 2) * 4096;
    writeFileSync(
      store,
      Buffer.concat([sound.subarray(0, middle + 8), garbage.subarray(0, 4088), sound.subarray(middle + 4096)]),
    );
    await run.start(browser);
    expect(run.historyLines()).toEqual([
      expect.stringMatching(
        /^history: \S+history\.sqlite: it could not be read \(SQLite's check found damage: [^)]*\); moved it aside to history\.sqlite\.damaged-2 and rebuilt the stream history from the journal \(\d+ events\)$/,
      ),
    ]);
    expect(await run.everything(streamId)).toEqual(before);
    await run.stop();
  }, 300_000);
});

/**
 * What the chat bot asks the history about a chatter (electron/history/viewer-recall.ts): the follow seen, where the
 * history starts, streams attended, and when they were last seen before a given line, which must ignore that line
 * itself and anything after it, and survive chat pruned after the retention days.
 */
import { afterEach, expect, it } from 'vitest';
import { createViewerRecall } from '../../../../electron/history/viewer-recall';
import { DAY, describeSqlite } from './history-fixtures';
import { events, feed, MIN, T0, T1, twoStreams } from './recap-fixtures';
import type { Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

describeSqlite('what the chat bot recalls of a chatter', () => {
  it('gives the follow seen, the streams attended and where the history starts', () => {
    fed = feed(twoStreams());
    const recall = createViewerRecall(fed.db);
    expect(recall.recall(12, T1 + 60 * MIN)).toEqual({
      followedAtMs: T0 + 3 * MIN,
      historySinceMs: T0 + 200,
      streams: 2,
      // Their last act before then: the Hydrate redemption.
      lastSeenBeforeMs: T1 + 13 * MIN,
    });
    expect(recall.recall(999, T1)).toEqual({
      followedAtMs: null,
      historySinceMs: T0 + 200,
      streams: 0,
      lastSeenBeforeMs: null,
    });
  });

  it('never counts the line being answered, nor a later one, as "last seen"', () => {
    fed = feed(twoStreams());
    const recall = createViewerRecall(fed.db);
    // Viewer 10 chatted at T0 + 1 min, then at T1 + 10 s (both kept): asked at that second line, the first one counts.
    expect(recall.recall(10, T1 + 10_000).lastSeenBeforeMs).toBe(T0 + MIN);
    expect(recall.recall(10, T0 + MIN).lastSeenBeforeMs).toBeNull();
  });

  it('after the earlier lines were pruned, says they were seen no later than the pruning point', () => {
    fed = feed([events.live(T0), events.chat('old', 40, T0 + MIN), events.offline(T0, T0 + 60 * MIN)]);
    // The lines go after 90 days; the viewer's counts stay.
    const atMs = T1 + 200 * DAY;
    fed.clock.set(atMs);
    expect(fed.store.prune()).toBe(1);
    fed.store.apply(events.chat('back', 40, atMs));
    const got = createViewerRecall(fed.db).recall(40, atMs);
    expect(fed.store.chatLines({ userId: 40 }).map((l) => l.atMs)).toEqual([atMs]);
    expect(got.lastSeenBeforeMs).not.toBeNull();
    expect(got.lastSeenBeforeMs!).toBeLessThanOrEqual(atMs - 90 * DAY);
  });
});

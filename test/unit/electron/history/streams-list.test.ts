import { afterEach, expect, it } from 'vitest';
import { listStreams } from '../../../../electron/history/streams-list';
import { describeSqlite } from './history-fixtures';
import { events, feed, MIN, T0, T1, twoStreams } from './recap-fixtures';
import type { Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

describeSqlite('the streams list', () => {
  it('gives each stream its key figures, newest first, compared with the stream before', () => {
    fed = feed(twoStreams());
    const [second, first] = listStreams(fed.db);
    expect(first).toEqual({
      startedAtMs: T0,
      endedAtMs: T0 + 60 * MIN,
      title: 'Morning stream',
      category: null,
      figures: { durationMs: 60 * MIN, messages: 2, chatters: 2, followers: 1, subs: 0, kicks: 0 },
      comparedWithPrevious: null,
    });
    expect(second).toEqual({
      startedAtMs: T1,
      endedAtMs: T1 + 120 * MIN,
      title: 'Evening stream',
      category: null,
      // followers 20 and 21 (20 twice); subs 22, 24, renewal 10, gifted 5 + 3 + 2; KICKs 100 + 500 + 50.
      figures: { durationMs: 120 * MIN, messages: 9, chatters: 4, followers: 2, subs: 13, kicks: 650 },
      comparedWithPrevious: { durationMs: 60 * MIN, messages: 7, chatters: 2, followers: 1, subs: 13, kicks: 650 },
    });
  });

  it('runs a stream still open to its last activity, and an empty history is an empty list', () => {
    fed = feed([events.live(T0), events.chat('a', 10, T0 + 42 * MIN)]);
    expect(listStreams(fed.db)).toMatchObject([{ endedAtMs: null, figures: { durationMs: 42 * MIN, messages: 1 } }]);
    fed.store.close();
    fed = feed([]);
    expect(listStreams(fed.db)).toEqual([]);
  });
});

/**
 * Title and category changes along a stream (docs/history.md#from-the-journal-to-rows), and what retention
 * keeps for good (docs/history.md#what-it-keeps).
 */
import { afterEach, expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import { listStreams } from '../../../../electron/history/streams-list';
import { createViewerStoryQueries } from '../../../../electron/history/viewer-story';
import { createViewerSearch } from '../../../../electron/history/viewer-search';
import { DAY, describeSqlite, events, fakeClock, MIN, receivedAt, T0 } from './history-fixtures';
import { feed, type Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

describeSqlite('title and category changes along a stream', () => {
  it('records each change with its time, and the recap and the list show the newest', () => {
    fed = feed([
      events.live(T0),
      events.metadata('Ranked grind', 'Valorant', T0 + 10 * MIN),
      events.metadata('Just chatting now', 'Just Chatting', T0 + 50 * MIN),
      events.offline(T0, T0 + 60 * MIN),
    ]);
    const changes = [
      { atMs: T0 + 10 * MIN, title: 'Ranked grind', category: 'Valorant' },
      { atMs: T0 + 50 * MIN, title: 'Just chatting now', category: 'Just Chatting' },
    ];
    expect(fed.store.streamChanges(T0)).toEqual(changes);
    expect(createRecapQueries(fed.db).recap(T0)?.stream).toMatchObject({ title: 'Just chatting now', changes });
    expect(listStreams(fed.db)[0]).toMatchObject({ title: 'Just chatting now', category: 'Just Chatting' });
  });

  it('keeps the newest title when an older change comes late, and records the late one too', () => {
    fed = feed([
      events.live(T0),
      events.metadata('Second title', 'Chess', T0 + 20 * MIN),
      receivedAt(events.metadata('First title', 'Valorant', T0 + 10 * MIN), T0 + 25 * MIN),
    ]);
    expect(fed.store.streams()[0]).toMatchObject({ title: 'Second title', category: 'Chess' });
    expect(fed.store.streamChanges(T0).map((c) => c.title)).toEqual(['First title', 'Second title']);
  });

  it('records a change Kick sent after the offline under the stream it happened in', () => {
    fed = feed([
      events.live(T0),
      events.offline(T0, T0 + 60 * MIN),
      receivedAt(events.metadata('Last words', 'Chess', T0 + 55 * MIN), T0 + 65 * MIN),
      events.metadata('Between streams', 'Chess', T0 + 90 * MIN),
    ]);
    expect(fed.store.streamChanges(T0).map((c) => c.title)).toEqual(['Last words']);
  });

  it('records a retitle made while Greenroom was closed when the stream is joined again', () => {
    const clock = fakeClock(T0);
    fed = feed([events.live(T0)], clock);
    clock.set(T0 + 30 * MIN);
    fed.store.observeLiveStatus({ isLive: true, startedAtMs: T0, title: 'Morning stream', category: null });
    expect(fed.store.streamChanges(T0)).toEqual([]);
    fed.store.observeLiveStatus({ isLive: true, startedAtMs: T0, title: 'New title', category: 'Chess' });
    expect(fed.store.streamChanges(T0)).toEqual([{ atMs: T0 + 30 * MIN, title: 'New title', category: 'Chess' }]);
    expect(fed.store.streams()).toEqual([expect.objectContaining({ title: 'New title', category: 'Chess' })]);
  });
});

describeSqlite('retention', () => {
  it("keeps a pruned viewer's messages, first seen, streams and search hit after their lines go", () => {
    const clock = fakeClock(T0);
    fed = feed(
      [
        events.live(T0),
        events.chat('old-1', 10, T0 + MIN),
        events.chat('old-2', 10, T0 + 2 * MIN),
        events.offline(T0, T0 + 60 * MIN),
      ],
      clock,
    );
    const before = fed.store.viewer(10);
    clock.set(T0 + 100 * DAY);
    expect(fed.store.prune()).toBe(2);
    expect(fed.store.chatLines()).toEqual([]);
    expect(fed.store.viewer(10)).toEqual(before);
    expect(fed.store.viewer(10)).toMatchObject({ messages: 2, firstSeenMs: T0 + MIN, streams: 1 });
    expect(createViewerStoryQueries(fed.db, fed.store).story(10)).toMatchObject({ messages: 2, firstSeenMs: T0 + MIN });
    expect(createViewerSearch(fed.db).search('viewer_10', 5)).toEqual([
      expect.objectContaining({ userId: 10, messages: 2, firstSeenMs: T0 + MIN }),
    ]);
    // The pruned lines replayed (a catch-up over an old journal) are not counted again.
    fed.store.apply(events.chat('old-1', 10, T0 + MIN));
    expect(fed.store.viewer(10)?.messages).toBe(2);
  });
});

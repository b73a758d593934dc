import { afterEach, expect, it } from 'vitest';
import { createViewerStoryQueries, MAX_MODERATION_ENTRIES } from '../../../../electron/history/viewer-story';
import { describeSqlite } from './history-fixtures';
import { events, feed, MIN, more, T0, T1, twoStreams } from './recap-fixtures';
import type { Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

const storyOf = (fedNow: Fed, userId: number) => createViewerStoryQueries(fedNow.db, fedNow.store).story(userId);

describeSqlite("a viewer's story", () => {
  it('adds up what the viewer did across streams, with where Greenroom first saw anything', () => {
    fed = feed(twoStreams());
    expect(storyOf(fed, 10)).toEqual({
      userId: 10,
      username: 'viewer_10',
      firstSeenMs: T0 + MIN,
      lastSeenMs: T1 + 14 * MIN,
      messages: 2,
      followedAtMs: null,
      subMonths: 6,
      giftedSubs: 0,
      kicks: 150,
      streams: 2,
      moderation: [],
      historySinceMs: T0 + 200,
    });
    expect(storyOf(fed, 12)).toMatchObject({ followedAtMs: T0 + 3 * MIN, messages: 5, kicks: 500, streams: 2 });
    expect(storyOf(fed, 23)).toMatchObject({ giftedSubs: 7, streams: 1 });
    expect(storyOf(fed, 999)).toBeNull();
  });

  it('lists bans and timeouts, oldest first, with who acted and until when', () => {
    fed = feed([
      events.live(T0),
      events.chat('a', 15, T0 + MIN),
      events.ban(15, T0 + 2 * MIN),
      more.timeout(15, T0 + 3 * MIN, 10),
    ]);
    expect(storyOf(fed, 15)!.moderation).toEqual([
      { atMs: T0 + 2 * MIN, kind: 'ban', expiresAtMs: null, moderator: 'mod', reason: 'spam' },
      { atMs: T0 + 3 * MIN, kind: 'timeout', expiresAtMs: T0 + 13 * MIN, moderator: 'mod', reason: 'caps' },
    ]);
  });

  it('keeps the newest moderation entries when a viewer has more than a card lists', () => {
    const timeouts = Array.from({ length: MAX_MODERATION_ENTRIES + 5 }, (_, i) => more.timeout(15, T0 + i * MIN, 1));
    fed = feed([events.chat('a', 15, T0), ...timeouts]);
    const { moderation } = storyOf(fed, 15)!;
    expect(moderation).toHaveLength(MAX_MODERATION_ENTRIES);
    expect(moderation[0]!.atMs).toBe(T0 + 5 * MIN);
    expect(moderation.at(-1)!.atMs).toBe(T0 + (MAX_MODERATION_ENTRIES + 4) * MIN);
  });
});

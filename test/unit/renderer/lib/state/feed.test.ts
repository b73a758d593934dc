import { describe, expect, it } from 'vitest';
import { FeedState } from '../../../../../renderer/src/lib/state/feed.svelte';
import { createFakeApi } from '../../fake-api';
import { feedItem } from '../../fixtures';

describe('FeedState', () => {
  it('keeps newest first, dedupes by id and is bounded', () => {
    const feed = new FeedState(createFakeApi().api);
    for (let i = 0; i < 600; i++) {
      feed.add(feedItem({ id: `f${i}`, atMs: i }));
    }
    feed.add(feedItem({ id: 'f599', atMs: 599 }));
    expect(feed.items).toHaveLength(500);
    expect(feed.items[0]!.id).toBe('f599');
    feed.setFilter('kicks');
    expect(feed.visible).toHaveLength(0);
    feed.setFilter('nope');
    expect(feed.filter).toBe('kicks');
  });
});

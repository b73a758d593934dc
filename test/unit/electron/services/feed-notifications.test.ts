import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../../../shared/views';
import { Feed } from '../../../../electron/services/feed';
import { notificationFor } from '../../../../electron/services/notifications';

const ALL_ON = { follows: true, subs: true, kicks: true, redemptions: true };

function item(id: string, kind: FeedItem['kind'], extra: Partial<FeedItem> = {}): FeedItem {
  return { id, kind, atMs: 1, text: `${kind} ${id}`, userId: 1, username: 'pixelpanda', eventType: 'x', ...extra };
}

function redemption(id: string, status: 'pending' | 'accepted' | 'rejected'): FeedItem {
  return item(`redemption-${id}`, 'redemption', {
    redemption: { id, status, rewardId: 'rw-1', rewardTitle: 'Hydrate', userInput: '' },
  });
}

describe('Feed', () => {
  it('is bounded, oldest first, and ignores a repeated delivery', () => {
    const feed = new Feed(3);
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(feed.upsert(item(id, 'follow'))).not.toBeNull();
    }
    expect(feed.upsert(item('d', 'follow'))).toBeNull();
    expect(feed.items().map((i) => i.id)).toEqual(['b', 'c', 'd']);
  });

  it("knows the newest name it saw for a user, for Kick's id-only redemption listing", () => {
    const feed = new Feed();
    feed.upsert(item('a', 'follow', { userId: 100114, username: 'old_name' }));
    feed.upsert(item('b', 'redemption', { userId: 100114, username: 'nightowl_tv' }));
    feed.upsert(item('c', 'live-status', { userId: null, username: null }));
    expect(feed.usernameOf(100114)).toBe('nightowl_tv');
    expect(feed.usernameOf(5)).toBeNull();
  });

  it('updates a redemption in place, from a webhook or from a panel decision', () => {
    const feed = new Feed();
    feed.upsert(item('f1', 'follow'));
    feed.upsert(redemption('r1', 'pending'));
    feed.upsert(redemption('r2', 'pending'));
    const updated = feed.upsert(redemption('r1', 'accepted'));
    expect(updated?.redemption?.status).toBe('accepted');
    expect(feed.setRedemptionStatus('r2', 'rejected')?.redemption?.status).toBe('rejected');
    expect(feed.setRedemptionStatus('r2', 'rejected')).toBeNull();
    expect(feed.setRedemptionStatus('unknown', 'accepted')).toBeNull();
    expect(feed.items().map((i) => [i.id, i.redemption?.status])).toEqual([
      ['f1', undefined],
      ['redemption-r1', 'accepted'],
      ['redemption-r2', 'rejected'],
    ]);
  });
});

describe('notificationFor', () => {
  it('notifies follows, subs, KICKs and new redemptions', () => {
    expect(notificationFor(item('1', 'follow'), ALL_ON)).toEqual({
      title: 'New follower',
      body: 'follow 1',
      itemId: '1',
    });
    expect(notificationFor(item('2', 'subscription'), ALL_ON)?.title).toBe('New subscriber');
    expect(notificationFor(item('3', 'renewal'), ALL_ON)?.title).toBe('Sub renewed');
    expect(notificationFor(item('4', 'gifted-subs'), ALL_ON)?.title).toBe('Gifted subs');
    expect(notificationFor(item('5', 'kicks'), ALL_ON)?.title).toBe('KICKs');
    expect(notificationFor(redemption('r', 'pending'), ALL_ON)?.title).toBe('Redemption: Hydrate');
  });

  it('stays quiet for other kinds, decided redemptions, and switched-off toggles', () => {
    for (const kind of ['ban', 'live-status', 'metadata', 'unknown'] as const) {
      expect(notificationFor(item('x', kind), ALL_ON)).toBeNull();
    }
    expect(notificationFor(redemption('r', 'accepted'), ALL_ON)).toBeNull();
    expect(notificationFor(item('1', 'follow'), { ...ALL_ON, follows: false })).toBeNull();
    expect(notificationFor(item('2', 'gifted-subs'), { ...ALL_ON, subs: false })).toBeNull();
    expect(notificationFor(item('5', 'kicks'), { ...ALL_ON, kicks: false })).toBeNull();
    expect(notificationFor(redemption('r', 'pending'), { ...ALL_ON, redemptions: false })).toBeNull();
  });
});

import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ActivityFeed from '../../../../renderer/src/components/ActivityFeed.svelte';
import { FeedState } from '../../../../renderer/src/lib/state/feed.svelte';
import { RedemptionsState } from '../../../../renderer/src/lib/state/redemptions.svelte';
import { createFakeApi, settle } from '../fake-api';
import { feedItem } from '../fixtures';

async function setup() {
  const fake = createFakeApi();
  fake.ok('feed:history', [
    feedItem({ id: 'f1', kind: 'follow', text: 'ann followed', username: 'ann' }),
    feedItem({ id: 'f2', kind: 'gifted-subs', text: 'ben gifted 5 subs', username: 'ben' }),
    feedItem({ id: 'f3', kind: 'kicks', text: 'cat sent 100 KICKs', username: 'cat' }),
  ]);
  const feed = new FeedState(fake.api);
  const opened: string[] = [];
  await feed.loadHistory();
  const redemptions = new RedemptionsState(fake.api, (id, status) => feed.setRedemptionStatus(id, status));
  render(ActivityFeed, {
    props: {
      feed,
      redemptions,
      canManageRedemptions: true,
      onUser: (_id: number | null, name: string) => opened.push(name),
    },
  });
  return { fake, feed, opened };
}

describe('ActivityFeed', () => {
  it('restores history and filters by type', async () => {
    await setup();
    expect(screen.getByText(/gifted 5 subs/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: /KICKs/ }));
    expect(screen.queryByText(/gifted 5 subs/)).toBeNull();
    expect(screen.getByText(/sent 100 KICKs/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: /Follows/ }));
    expect(screen.getByRole('button', { name: /Follows/ }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/followed/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: /Bans/ }));
    expect(screen.getByText('Nothing of this type yet.')).toBeTruthy();
  });

  it('filters raids by their own chip, counted, and keeps them out of the other chips', async () => {
    const { feed } = await setup();
    expect(screen.getByRole('button', { name: 'Raids 0' })).toBeTruthy();
    feed.add(feedItem({ id: 'raid-1', kind: 'raid', text: 'eve raided with 120 viewers', username: 'eve' }));
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: 'Raids 1' }));
    expect(screen.getByRole('button', { name: 'Raids 1' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/raided with 120 viewers/)).toBeTruthy();
    expect(screen.queryByText(/gifted 5 subs/)).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: /Follows/ }));
    expect(screen.queryByText(/raided with 120 viewers/)).toBeNull();
  });

  it('adds live items once and opens the user card from a name', async () => {
    const { feed, opened } = await setup();
    const item = feedItem({ id: 'live-1', kind: 'subscription', text: 'dan subscribed', username: 'dan' });
    feed.add(item);
    feed.add({ ...item });
    await settle();
    expect(screen.getAllByText(/subscribed/)).toHaveLength(1);
    await fireEvent.click(screen.getByRole('button', { name: 'dan' }));
    expect(opened).toEqual(['dan']);
  });

  it('accepts a pending redemption right in the feed', async () => {
    const { fake, feed } = await setup();
    feed.add(
      feedItem({
        id: 'r-ev',
        kind: 'redemption',
        text: 'eve redeemed Hydrate',
        username: 'eve',
        redemption: { id: 'red-9', status: 'pending', rewardId: 'g1', rewardTitle: 'Hydrate', userInput: 'drink!' },
      }),
    );
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await settle();
    expect(fake.argsOf('redemptions:accept')).toEqual([[{ ids: ['red-9'] }]]);
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(screen.getByText('accepted')).toBeTruthy();
  });
});

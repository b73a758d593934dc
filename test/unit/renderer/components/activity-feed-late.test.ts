/** Late events in Activity (docs/design-notes.md#late-events): the "late" mark and the episode's digest. */
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
    feedItem({ id: 'f1', kind: 'follow', text: 'ann followed', username: 'ann', late: true }),
    feedItem({ id: 'f2', kind: 'subscription', text: 'ben subscribed', username: 'ben' }),
  ]);
  const feed = new FeedState(fake.api);
  await feed.loadHistory();
  const redemptions = new RedemptionsState(fake.api, (id, status) => feed.setRedemptionStatus(id, status));
  render(ActivityFeed, { props: { feed, redemptions, canManageRedemptions: true, onUser: () => undefined } });
  return { feed };
}

const digest = (count: number) =>
  feedItem({
    id: 'late-digest-1',
    kind: 'app',
    text: `${count} events arrived late while Kick's webhooks were behind`,
    username: null,
    userId: null,
    lateDigest: {
      count,
      entries: [
        { id: 'f1', text: 'ann followed', happenedAtMs: Date.UTC(2026, 2, 1, 12, 0) },
        { id: 'f3', text: 'cat subscribed', happenedAtMs: Date.UTC(2026, 2, 1, 12, 1) },
      ],
    },
  });

describe('late events in Activity', () => {
  it('marks a late entry, and only that one', async () => {
    await setup();
    expect(screen.getAllByText('late')).toHaveLength(1);
    expect(screen.getByText('late').closest('li')!.textContent).toContain('followed');
  });

  it('shows one digest that lists the late events and grows in place', async () => {
    const { feed } = await setup();
    feed.add(digest(2));
    await settle();
    await fireEvent.click(screen.getByText('Show them'));
    expect(screen.getByText(/2 events arrived late/)).toBeTruthy();
    expect(screen.getByText(/cat subscribed/)).toBeTruthy();
    feed.add(digest(5));
    await settle();
    expect(screen.queryByText(/2 events arrived late/)).toBeNull();
    expect(screen.getAllByText(/events arrived late/)).toHaveLength(1);
    expect(screen.getByText('and 3 more')).toBeTruthy();
  });
});

/**
 * Views follow the events (renderer/src/lib/state/view-refresh.ts), through the panel's real composition
 * root: events main pushes, the connection dropping and coming back, sign-in and sign-out, on a manual clock.
 */
import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../../../../shared/views';
import { formatClock } from '../../../../../renderer/src/lib/format';
import { AppState } from '../../../../../renderer/src/lib/state/app.svelte';
import { VIEW_REFRESH_MIN_MS, viewsChangedBy } from '../../../../../renderer/src/lib/state/view-refresh';
import type { ConnectionStatus } from '../../../../../renderer/src/lib/transport';
import { createFakeApi, manualClock, manualFrames, settle } from '../../fake-api';
import { account, adStatus, feedItem, reward, snapshot } from '../../fixtures';

function setup(signedIn = true) {
  const fake = createFakeApi();
  const clock = manualClock();
  fake.ok('app:snapshot', snapshot({ account: account({ signedIn }) }));
  let listener: ((s: ConnectionStatus) => void) | null = null;
  const connection = {
    status: 'open' as ConnectionStatus,
    onStatus(l: (s: ConnectionStatus) => void) {
      listener = l;
      return () => void (listener = null);
    },
  };
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock, connection });
  app.connect();
  const calls = (channel: 'rewards:list' | 'kicks:leaderboard' | 'ads:status' | 'redemptions:list' | 'stream:info') =>
    fake.argsOf(channel).length;
  return { fake, clock, app, calls, setStatus: (s: ConnectionStatus) => listener?.(s) };
}

function redemption(rewardId: string, rewardTitle: string, id: string): FeedItem {
  return feedItem({
    kind: 'redemption',
    eventType: 'channel.reward.redemption.updated',
    redemption: { id, status: 'pending', rewardId, rewardTitle, userInput: '' },
  });
}

const kicks = (): FeedItem => feedItem({ kind: 'kicks', eventType: 'kicks.gifted' });
const known = (ids: Record<string, string>) => ({ knows: (id: string, title: string) => ids[id] === title });

describe('which views an event changes', () => {
  it('rewards for a redemption of a reward not listed or renamed; the board for KICKs; ads for live status', () => {
    const rewards = known({ r1: 'Hydrate' });
    expect(viewsChangedBy(redemption('r1', 'Hydrate', 'a'), rewards)).toEqual([]);
    expect(viewsChangedBy(redemption('r2', 'Stretch', 'b'), rewards)).toEqual(['rewards']);
    expect(viewsChangedBy(redemption('r1', 'Drink water', 'c'), rewards)).toEqual(['rewards']);
    expect(viewsChangedBy(kicks(), rewards)).toEqual(['kicks']);
    expect(viewsChangedBy(feedItem({ kind: 'live-status' }), rewards)).toEqual(['ads']);
    expect(viewsChangedBy(feedItem({ kind: 'follow' }), rewards)).toEqual([]);
    expect(viewsChangedBy(feedItem({ kind: 'metadata' }), rewards)).toEqual([]);
  });
});

describe('views follow the events', () => {
  it('lists rewards created after Rewards loaded once their redemptions arrive, in one reload for a wave', async () => {
    const { fake, app, clock, calls } = setup();
    await app.start();
    await app.rewards.load();
    await app.redemptions.load();
    expect(app.rewards.rewards).toEqual([]);
    const created = [reward({ id: 'w1' }), reward({ id: 'w2' }), reward({ id: 'w3' })];
    fake.ok('rewards:list', created);
    const before = { rewards: calls('rewards:list'), queue: calls('redemptions:list') };
    // 18 redemptions of the three new rewards, all within the first second.
    for (let i = 0; i < 18; i++) {
      fake.emit('kick:event', {
        kind: 'redemption',
        item: redemption(created[i % 3]!.id, created[i % 3]!.title, `x${i}`),
      });
      clock.advance(50);
    }
    await settle();
    clock.advance(VIEW_REFRESH_MIN_MS);
    await settle();
    expect(app.rewards.rewards.map((r) => r.id)).toEqual(['w1', 'w2', 'w3']);
    expect(calls('rewards:list') - before.rewards).toBeGreaterThanOrEqual(1);
    expect(calls('rewards:list') - before.rewards).toBeLessThanOrEqual(2);
    // The queue too read its listing again for rewards it did not show, paced the same way.
    expect(calls('redemptions:list') - before.queue).toBeLessThanOrEqual(2);
  });

  it('reloads the KICKs board at most twice for a raid of 500 gifts, then at once for the next', async () => {
    const { fake, app, clock, calls } = setup();
    await app.start();
    await app.leaderboard.load();
    const board = { lifetime: [{ rank: 1, user_id: 7, username: 'whale', gifted_amount: 500 }], month: [], week: [] };
    fake.ok('kicks:leaderboard', board);
    const before = calls('kicks:leaderboard');
    for (let i = 0; i < 500; i++) {
      fake.emit('kick:event', { kind: 'feed', item: kicks() });
      clock.advance(1);
    }
    await settle();
    expect(calls('kicks:leaderboard') - before).toBe(1);
    clock.advance(VIEW_REFRESH_MIN_MS);
    await settle();
    expect(calls('kicks:leaderboard') - before).toBe(2);
    expect(app.leaderboard.entries.map((e) => e.username)).toEqual(['whale']);
    clock.advance(5 * VIEW_REFRESH_MIN_MS);
    fake.emit('kick:event', { kind: 'feed', item: kicks() });
    expect(calls('kicks:leaderboard') - before).toBe(3);
  });

  it('drops a reload a burst left waiting when main rebuilds its app', async () => {
    const { fake, app, clock, calls } = setup();
    await app.start();
    await app.leaderboard.load();
    fake.emit('kick:event', { kind: 'feed', item: kicks() });
    fake.emit('kick:event', { kind: 'feed', item: kicks() });
    await settle();
    const before = calls('kicks:leaderboard');
    fake.emit('app:restarted', { message: 'Settings applied' });
    await settle();
    clock.advance(2 * VIEW_REFRESH_MIN_MS);
    await settle();
    // The board belonged to the old app: it loads again only when shown.
    expect(calls('kicks:leaderboard')).toBe(before);
    expect(app.leaderboard.loadState.requested).toBe(false);
  });

  it('leaves a view never shown alone: it loads when shown', async () => {
    const { fake, app, clock, calls } = setup();
    await app.start();
    fake.emit('kick:event', { kind: 'feed', item: kicks() });
    fake.emit('kick:event', { kind: 'feed', item: feedItem({ kind: 'live-status' }) });
    fake.emit('kick:event', { kind: 'redemption', item: redemption('r9', 'New', 'n1') });
    clock.advance(2 * VIEW_REFRESH_MIN_MS);
    await settle();
    expect([calls('kicks:leaderboard'), calls('ads:status'), calls('rewards:list')]).toEqual([0, 0, 0]);
  });

  it('reads ads again when the channel goes live or offline', async () => {
    const { fake, app, calls } = setup();
    await app.start();
    await app.ads.load();
    fake.ok('ads:status', adStatus({ opted_in: false }));
    fake.emit('kick:event', { kind: 'feed', item: feedItem({ kind: 'live-status' }) });
    await settle();
    expect(calls('ads:status')).toBe(2);
    expect(app.ads.status?.opted_in).toBe(false);
  });
});

describe('views another panel changed', () => {
  it('reads rewards and ads again when main says another panel changed them, if shown', async () => {
    const { fake, app, calls } = setup();
    await app.start();
    await app.rewards.load();
    fake.ok('rewards:list', [reward({ id: 'made-in-the-window' })]);
    fake.emit('views:changed', { view: 'rewards' });
    fake.emit('views:changed', { view: 'ads' });
    await settle();
    expect(app.rewards.rewards.map((r) => r.id)).toEqual(['made-in-the-window']);
    expect(calls('ads:status')).toBe(0);
  });
});

describe('views read main again when their picture may be old', () => {
  it('reloads the views loaded signed out once the streamer signs in', async () => {
    const { fake, app, calls } = setup(false);
    await app.start();
    fake.fail('rewards:list', 'NotSignedIn', 'sign in first');
    fake.fail('kicks:leaderboard', 'NotSignedIn', 'sign in first');
    await app.rewards.load();
    await app.leaderboard.load();
    expect(app.rewards.loadState.error?.text).toMatch(/signed out/);
    fake.ok('rewards:list', [reward({ id: 'r1' })]);
    fake.ok('kicks:leaderboard', { lifetime: [], month: [], week: [] });
    fake.emit('session:changed', account({ signedIn: true }));
    await settle();
    expect(app.rewards.rewards.map((r) => r.id)).toEqual(['r1']);
    expect(app.rewards.loadState.error).toBeNull();
    expect(app.leaderboard.loadState.loaded).toBe(true);
    // Ads was never shown: it loads when it is.
    expect(calls('ads:status')).toBe(0);
  });

  it('reloads every view shown after the link to Greenroom comes back', async () => {
    const { app, calls, setStatus } = setup();
    await app.start();
    await Promise.all([app.rewards.load(), app.leaderboard.load(), app.ads.load()]);
    const before = [calls('rewards:list'), calls('kicks:leaderboard'), calls('ads:status'), calls('stream:info')];
    setStatus('reconnecting');
    setStatus('open');
    await settle();
    const after = [calls('rewards:list'), calls('kicks:leaderboard'), calls('ads:status'), calls('stream:info')];
    expect(after.map((n, i) => n - before[i]!)).toEqual([1, 1, 1, 1]);
  });

  it('says since when a view shows what it shows once the streamer is signed out', async () => {
    const { fake, app, clock } = setup();
    await app.start();
    fake.ok('rewards:list', [reward({ id: 'r1' })]);
    await app.rewards.load();
    const readAt = clock.now();
    clock.advance(10 * 60_000);
    fake.fail('rewards:list', 'NotSignedIn', 'sign in first');
    fake.emit('session:changed', account({ signedIn: false }));
    await settle();
    expect(app.rewards.rewards.map((r) => r.id)).toEqual(['r1']);
    expect(app.rewards.loadState.error?.text).toContain(`as of ${formatClock(readAt)}`);
  });
});

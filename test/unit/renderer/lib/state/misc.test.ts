import { describe, expect, it } from 'vitest';
import { ComposerState } from '../../../../../renderer/src/lib/state/composer.svelte';
import { FeedState } from '../../../../../renderer/src/lib/state/feed.svelte';
import { HealthState } from '../../../../../renderer/src/lib/state/health.svelte';
import { LeaderboardState } from '../../../../../renderer/src/lib/state/leaderboard.svelte';
import { RewardsState } from '../../../../../renderer/src/lib/state/rewards.svelte';
import { SessionState } from '../../../../../renderer/src/lib/state/session.svelte';
import { SettingsState } from '../../../../../renderer/src/lib/state/settings.svelte';
import { createFakeApi } from '../../fake-api';
import { account, feedItem, health, reward, snapshot } from '../../fixtures';

describe('SessionState', () => {
  it('lists missing scopes and signs in again asking for them', async () => {
    const fake = createFakeApi();
    fake.ok('app:snapshot', snapshot({ account: account({ scopes: ['user:read'] }) }));
    const session = new SessionState(fake.api);
    await session.load();
    expect(session.missingScopes).toContain('ads:write');
    fake.ok('auth:start-login', account());
    await session.addScope('ads:write');
    expect(fake.argsOf('auth:start-login')).toEqual([[{ scopes: ['user:read', 'ads:write'] }]]);
    expect(session.missingScopes).not.toContain('ads:write');
  });

  it('signs out', async () => {
    const fake = createFakeApi();
    const session = new SessionState(fake.api);
    await session.load();
    await session.signOut();
    expect(session.signedIn).toBe(false);
  });
});

describe('ComposerState', () => {
  it('explains why sending is off and reports is_sent false', async () => {
    const fake = createFakeApi();
    const session = new SessionState(fake.api);
    const composer = new ComposerState(fake.api, session);
    expect(composer.disabledReason).toMatch(/Sign in/);
    await session.load();
    composer.content = '  hi  ';
    fake.ok('chat:send', { is_sent: false, message_id: '' });
    expect(await composer.send()).toBe(false);
    expect(composer.error?.text).toMatch(/did not send/);
    expect(fake.argsOf('chat:send')).toEqual([[{ content: 'hi', as: 'user' }]]);
  });
});

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

describe('LeaderboardState', () => {
  it('clamps top N to 1–100', async () => {
    const fake = createFakeApi();
    const lb = new LeaderboardState(fake.api);
    await lb.setTop(500);
    expect(lb.top).toBe(100);
    await lb.setTop(0);
    expect(lb.top).toBe(1);
    expect(fake.argsOf('kicks:leaderboard')).toEqual([[{ top: 100 }], [{ top: 1 }]]);
  });
});

describe('RewardsState', () => {
  it('keeps other apps rewards read-only and caps at 15', async () => {
    const fake = createFakeApi();
    const list = Array.from({ length: 15 }, (_, i) => reward({ id: `r${i}` }));
    list[0] = { ...list[0]!, canManage: false };
    fake.ok('rewards:list', list);
    const rewards = new RewardsState(fake.api);
    await rewards.load();
    expect(rewards.canCreate).toBe(false);
    rewards.startEdit('r0');
    expect(rewards.form).toBeNull();
    rewards.startEdit('r1');
    expect(rewards.form?.original?.id).toBe('r1');
  });
});

describe('SettingsState', () => {
  it('validates drafts before saving', async () => {
    const fake = createFakeApi();
    const settings = new SettingsState(fake.api);
    await settings.load();
    settings.redirectUri = 'https://example.com';
    expect(settings.connectionError).toMatch(/Redirect URL/);
    expect(await settings.saveConnection()).toBe(false);
    settings.scrollback = 50;
    expect(settings.scrollbackError).toMatch(/100 to 10000/);
    settings.clientSecret = '';
    expect(settings.credentialsError).toMatch(/Client secret/);
    expect(fake.argsOf('settings:update')).toHaveLength(0);
  });
});

describe('HealthState: whether events can reach Greenroom', () => {
  it('treats the tunnel being off as fine only on the sandbox', () => {
    const state = new HealthState(createFakeApi().api);
    expect(state.problems).toBe(0);
    state.apply(health({ mode: 'sandbox', tunnel: { state: 'off' } }));
    expect(state.tunnelOk).toBe(true);
    expect(state.tunnelText).toMatch(/Not needed/);
    state.apply(health({ mode: 'kick', tunnel: { state: 'off' } }));
    expect(state.tunnelOk).toBe(false);
    expect(state.tunnelText).toMatch(/cannot reach Greenroom/);
    expect(state.problems).toBeGreaterThanOrEqual(1);
    state.apply(health({ mode: 'kick', tunnel: { state: 'up', url: 'https://x.loca.lt' } }));
    expect(state.tunnelOk).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { KickRedemptionFailure, KickRedemptionGroup, KickReward, Page } from '../../../../shared/kick/resources';
import { KickApiError } from '../../../../electron/kick/kick-errors';
import { type ChannelClient, ChannelOps } from '../../../../electron/services/channel-ops';
import { channel } from '../../renderer/fixtures';

const ids = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

function reward(id: string): KickReward {
  return {
    id,
    title: id,
    description: '',
    cost: 1,
    background_color: '#00e701',
    is_enabled: true,
    is_paused: false,
    is_user_input_required: false,
    should_redemptions_skip_request_queue: false,
  };
}

function setup(
  client: Partial<ChannelClient>,
  managed: string[] = [],
  knownUsername?: (userId: number) => string | null,
) {
  const decided: [string[], string][] = [];
  const logs: string[] = [];
  const set = new Set(managed);
  const ops = new ChannelOps({
    client: client as ChannelClient,
    managedRewards: { has: (id) => set.has(id), add: (id) => set.add(id), remove: (id) => set.delete(id) },
    broadcasterUserId: () => 100001,
    knownUsername,
    onRedemptionsDecided: (list, status) => decided.push([list, status]),
    log: (line) => logs.push(line),
  });
  return { ops, decided, logs, managed: set };
}

describe('ChannelOps redemptions', () => {
  it("sends accepts in batches of Kick's 25 and concatenates the failures", async () => {
    const batches: string[][] = [];
    const { ops, decided } = setup({
      acceptRewardRedemptions: (batch) => {
        batches.push(batch);
        return Promise.resolve(
          batch
            .filter((id) => id === 'r3' || id === 'r40')
            .map((id): KickRedemptionFailure => ({ id, reason: 'NOT_PENDING' })),
        );
      },
    });
    const failures = await ops.accept([...ids(60), 'r1']);
    expect(batches.map((b) => b.length)).toEqual([25, 25, 10]);
    expect(failures).toEqual([
      { id: 'r3', reason: 'NOT_PENDING' },
      { id: 'r40', reason: 'NOT_PENDING' },
    ]);
    expect(decided.map(([list, status]) => [list.length, status])).toEqual([
      [24, 'accepted'],
      [24, 'accepted'],
      [10, 'accepted'],
    ]);
  });

  it('throws when the first batch fails (nothing happened), and reports the rest as failed after a later one', async () => {
    const denied = new KickApiError('MissingScope', 'needs channel:rewards:write', {
      operation: 'rejectRewardRedemptions',
    });
    const first = setup({ rejectRewardRedemptions: () => Promise.reject(denied) });
    await expect(first.ops.reject(ids(30))).rejects.toBe(denied);

    let call = 0;
    const later = setup({
      rejectRewardRedemptions: () =>
        ++call === 1 ? Promise.resolve([]) : Promise.reject(new KickApiError('Network', 'offline', { operation: 'x' })),
    });
    const failures = await later.ops.reject(ids(30));
    expect(failures).toEqual(ids(5).map((_, i) => ({ id: `r${26 + i}`, reason: 'UNKNOWN' })));
    expect(later.decided).toEqual([[ids(25), 'rejected']]);
    expect(later.logs.join()).toMatch(/batch failed after 25 ids/);
  });

  it('walks every page of the listing, merging groups by reward, and learns can_manage', async () => {
    const group = (rewardId: string, redemptionId: string, canManage: boolean): KickRedemptionGroup => ({
      reward: { id: rewardId, title: rewardId, description: '', cost: 1, can_manage: canManage, is_deleted: false },
      redemptions: [{ id: redemptionId, redeemed_at: '', redeemer: { user_id: 1 }, status: 'pending', user_input: '' }],
    });
    const pages: Page<KickRedemptionGroup>[] = [
      { items: [group('A', 'a1', true), group('B', 'b1', false)], nextCursor: 'c1' },
      { items: [group('A', 'a2', true)], nextCursor: null },
    ];
    const cursors: (string | undefined)[] = [];
    const { ops, managed } = setup(
      {
        fetchRewardRedemptions: (input) => {
          cursors.push(input?.cursor);
          return Promise.resolve(pages[cursors.length - 1]!);
        },
        fetchChannelRewards: () => Promise.resolve([reward('A'), reward('B'), reward('C'), reward('D')]),
      },
      ['B', 'D'],
    );
    const groups = await ops.listRedemptions('pending');
    expect(cursors).toEqual([undefined, 'c1']);
    expect(groups.map((g) => [g.reward.id, g.redemptions.map((r) => r.id)])).toEqual([
      ['A', ['a1', 'a2']],
      ['B', ['b1']],
    ]);
    // Kick's can_manage wins (A yes, B no, although B is remembered); otherwise what this install created (D).
    const rewards = await ops.listRewards();
    expect(rewards.map((r) => [r.id, r.canManage])).toEqual([
      ['A', true],
      ['B', false],
      ['C', false],
      ['D', true],
    ]);
    // What Kick said is remembered where a restart finds it, not only in memory.
    expect([...managed].sort()).toEqual(['A', 'D']);
  });
});

describe('ChannelOps redeemer names', () => {
  const pending = (id: string, userId: number) => ({
    id,
    redeemed_at: '',
    redeemer: { user_id: userId },
    status: 'pending' as const,
    user_input: '',
  });
  const listing = (...redemptions: ReturnType<typeof pending>[]): Page<KickRedemptionGroup> => ({
    items: [
      {
        reward: { id: 'R', title: 'Hydrate', description: '', cost: 1, can_manage: true, is_deleted: false },
        redemptions,
      },
    ],
    nextCursor: null,
  });

  it("names each redeemer from the events main has seen, else from Kick's users endpoint, asking once per user", async () => {
    const lookedUp: number[] = [];
    const { ops } = setup(
      {
        fetchRewardRedemptions: () =>
          Promise.resolve(listing(pending('a', 100114), pending('b', 200), pending('c', 200), pending('d', 300))),
        fetchUser: (id) => {
          lookedUp.push(id);
          return Promise.resolve(
            id === 200 ? { user_id: 200, name: 'quiet_lurker', email: '', profile_picture: '' } : null,
          );
        },
      },
      [],
      (id) => (id === 100114 ? 'nightowl_tv' : null),
    );
    const [group] = await ops.listRedemptions('pending');
    expect(group!.redemptions.map((r) => [r.id, r.redeemerName])).toEqual([
      ['a', 'nightowl_tv'],
      ['b', 'quiet_lurker'],
      ['c', 'quiet_lurker'],
      ['d', null],
    ]);
    expect(lookedUp.sort()).toEqual([200, 300]);
    // A refresh does not ask Kick again for a name it gave.
    await ops.listRedemptions('pending');
    expect(lookedUp.filter((id) => id === 200)).toHaveLength(1);
  });

  it('still lists the redemptions, unnamed, when the lookup fails (no user:read), and says so once', async () => {
    const { ops, logs } = setup({
      fetchRewardRedemptions: () => Promise.resolve(listing(pending('a', 1), pending('b', 2))),
      fetchUser: () => Promise.reject(new KickApiError('MissingScope', 'needs user:read', { operation: 'fetchUser' })),
    });
    const [group] = await ops.listRedemptions('pending');
    expect(group!.redemptions.map((r) => r.redeemerName)).toEqual([null, null]);
    expect(logs.filter((l) => l.includes('names'))).toHaveLength(1);
  });
});

describe('ChannelOps rewards', () => {
  it('remembers rewards it creates, forgets deleted ones, and learns from a 403', async () => {
    const { ops, managed } = setup(
      {
        createChannelReward: () => Promise.resolve(reward('NEW')),
        deleteChannelReward: () => Promise.resolve(),
        updateChannelReward: (id) =>
          id === 'OTHER'
            ? Promise.reject(
                new KickApiError('Forbidden', 'not your reward', { operation: 'updateChannelReward', status: 403 }),
              )
            : Promise.resolve(reward(id)),
      },
      ['OTHER'],
    );
    await ops.createReward({ title: 'New', cost: 5 });
    expect(managed.has('NEW')).toBe(true);
    expect(ops.canManage('NEW')).toBe(true);
    await expect(ops.updateReward('OTHER', { isPaused: true })).rejects.toMatchObject({ code: 'Forbidden' });
    expect(ops.canManage('OTHER')).toBe(false);
    expect(managed.has('OTHER')).toBe(false);
    await ops.deleteReward('NEW');
    expect(managed.has('NEW')).toBe(false);
    expect(ops.canManage('NEW')).toBe(false);
  });

  it('updates the stream, then reads the channel back', async () => {
    const calls: unknown[] = [];
    const { ops } = setup({
      updateChannel: (input) => {
        calls.push(['update', input]);
        return Promise.resolve();
      },
      fetchChannel: (input) => {
        calls.push(['fetch', input]);
        return Promise.resolve(null);
      },
    });
    await ops.updateStream({ title: 'New title', tags: ['chill'] });
    expect(calls).toEqual([
      ['update', { streamTitle: 'New title', categoryId: undefined, customTags: ['chill'] }],
      ['fetch', { userId: 100001 }],
    ]);
  });
});

describe('ChannelOps stream key seen', () => {
  const withKey = (key: string) => {
    const base = channel();
    return { ...base, stream: { ...base.stream, key } };
  };

  it('remembers the key Kick sends with the channel, for the logger, and never puts it in the view', async () => {
    const answers = [withKey(''), withKey('sk_us-west-2_seen1234')];
    const { ops } = setup({ fetchChannel: () => Promise.resolve(answers.shift()!) });
    await ops.streamInfo();
    expect(ops.streamKeySeen()).toBeNull();
    const view = await ops.streamInfo();
    expect(ops.streamKeySeen()).toBe('sk_us-west-2_seen1234');
    expect(JSON.stringify(view)).not.toContain('sk_us-west-2_seen1234');
  });

  it('remembers the key read for a panel that asked', async () => {
    const { ops } = setup({ fetchChannel: () => Promise.resolve(withKey('sk_us-west-2_asked5678')) });
    expect((await ops.streamKey(['streamkey:read'])).key).toBe('sk_us-west-2_asked5678');
    expect(ops.streamKeySeen()).toBe('sk_us-west-2_asked5678');
  });
});

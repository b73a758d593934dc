import { describe, expect, it } from 'vitest';
import { RedemptionsState } from '../../../../../renderer/src/lib/state/redemptions.svelte';
import { createFakeApi, settle } from '../../fake-api';
import { feedItem, redemptionGroup } from '../../fixtures';

async function setup() {
  const fake = createFakeApi();
  fake.ok('redemptions:list', [
    redemptionGroup({ id: 'g1', title: 'Hydrate' }, ['a', 'b']),
    redemptionGroup({ id: 'g2', title: 'Theirs', can_manage: false }, ['z']),
  ]);
  const done: [string, string][] = [];
  const state = new RedemptionsState(fake.api, (id, status) => done.push([id, status]));
  await state.load();
  return { fake, state, done };
}

describe('RedemptionsState', () => {
  it('selects only redemptions of rewards this app manages', async () => {
    const { state } = await setup();
    state.selectAll();
    expect(state.selectedCount).toBe(2);
    expect(state.allSelected).toBe(true);
    state.toggle('z');
    expect(state.isSelected('z')).toBe(false);
    state.toggleGroup('g1');
    expect(state.selectedCount).toBe(0);
  });

  it('sends more than 25 ids in one call (main batches) and records failures per item', async () => {
    const fake = createFakeApi();
    const ids = Array.from({ length: 40 }, (_, i) => `r${i}`);
    fake.ok('redemptions:list', [redemptionGroup({ id: 'g' }, ids)]);
    fake.ok('redemptions:reject', [
      { id: 'r3', reason: 'NOT_FOUND' },
      { id: 'r7', reason: 'UNKNOWN' },
    ]);
    const state = new RedemptionsState(fake.api);
    await state.load();
    state.selectAll();
    await state.act('reject');
    expect(fake.argsOf('redemptions:reject')).toEqual([[{ ids }]]);
    expect(state.total).toBe(2);
    expect(state.failureFor('r3')).toBe('Kick no longer has this redemption.');
    expect(state.failureFor('r7')).toBe('Kick could not process it; try again.');
    expect(state.selectedCount).toBe(0);
  });

  it('reports accepted ids back to the feed', async () => {
    const { state, done } = await setup();
    await state.act('accept', ['a']);
    expect(done).toEqual([['a', 'accepted']]);
  });

  it('adds redemption events to their reward group and reloads for an unknown reward', async () => {
    const { fake, state } = await setup();
    state.onEvent(
      feedItem({
        kind: 'redemption',
        username: 'eve',
        userId: 9,
        redemption: { id: 'c', status: 'pending', rewardId: 'g1', rewardTitle: 'Hydrate', userInput: 'now' },
      }),
    );
    expect(state.groups[0]!.redemptions.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(state.nameOf(state.groups[0]!.redemptions[2]!)).toBe('eve');
    const before = fake.argsOf('redemptions:list').length;
    state.onEvent(
      feedItem({
        kind: 'redemption',
        redemption: { id: 'd', status: 'pending', rewardId: 'g-new', rewardTitle: 'New one', userInput: '' },
      }),
    );
    await settle();
    expect(fake.argsOf('redemptions:list').length).toBe(before + 1);
    state.onEvent(
      feedItem({
        kind: 'redemption',
        redemption: { id: 'a', status: 'accepted', rewardId: 'g1', rewardTitle: 'Hydrate', userInput: '' },
      }),
    );
    expect(state.groups.flatMap((g) => g.redemptions.map((r) => r.id))).not.toContain('a');
  });
});

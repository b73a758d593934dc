import { describe, expect, it } from 'vitest';
import { RewardsState } from '../../../../../renderer/src/lib/state/rewards.svelte';
import { createFakeApi } from '../../fake-api';
import { reward } from '../../fixtures';

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

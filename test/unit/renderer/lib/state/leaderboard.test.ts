import { describe, expect, it } from 'vitest';
import { LeaderboardState } from '../../../../../renderer/src/lib/state/leaderboard.svelte';
import { createFakeApi } from '../../fake-api';

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

import { describe, expect, it } from 'vitest';
import { HealthState } from '../../../../../renderer/src/lib/state/health.svelte';
import { createFakeApi } from '../../fake-api';
import { health } from '../../fixtures';

describe('HealthState: whether events can reach Greenroom', () => {
  it('treats the tunnel being off as fine only on the sandbox', () => {
    const state = new HealthState(createFakeApi().api);
    expect(state.problems).toBe(0);
    state.apply(health({ mode: 'sandbox', tunnel: { state: 'off' } }));
    expect(state.tunnelOk).toBe(true);
    expect(state.tunnelText).toMatch(/no tunnel needed/);
    state.apply(health({ mode: 'kick', tunnel: { state: 'off' } }));
    expect(state.tunnelOk).toBe(false);
    expect(state.tunnelText).toMatch(/cannot reach Greenroom/);
    expect(state.problems).toBeGreaterThanOrEqual(1);
    state.apply(health({ mode: 'kick', tunnel: { state: 'up', url: 'https://x.loca.lt' } }));
    expect(state.tunnelOk).toBe(true);
  });
});

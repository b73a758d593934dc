import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import RedemptionQueue from '../../../../renderer/src/components/RedemptionQueue.svelte';
import { RedemptionsState } from '../../../../renderer/src/lib/state/redemptions.svelte';
import { createFakeApi, settle } from '../fake-api';
import { redemptionGroup } from '../fixtures';

async function setup(canManage = true) {
  const fake = createFakeApi();
  fake.ok('redemptions:list', [
    redemptionGroup({ id: 'rw-a', title: 'Hydrate' }, ['a1', 'a2']),
    redemptionGroup({ id: 'rw-b', title: 'Song request' }, ['b1']),
    redemptionGroup({ id: 'rw-c', title: 'Other app reward', can_manage: false }, ['c1']),
  ]);
  const redemptions = new RedemptionsState(fake.api);
  await redemptions.load();
  const r = render(RedemptionQueue, { props: { redemptions, canManage } });
  const item = (id: string) => r.container.querySelector<HTMLElement>(`[data-redemption-id="${id}"]`)!;
  return { fake, redemptions, item };
}

describe('RedemptionQueue', () => {
  it('groups pending redemptions by reward with the user input', async () => {
    const { item } = await setup();
    expect(screen.getByRole('heading', { name: 'Hydrate' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Song request' })).toBeTruthy();
    expect(item('a1').textContent).toContain('input a1');
    expect(screen.getByText('managed by another app')).toBeTruthy();
    expect(within(item('c1')).queryByRole('checkbox')).toBeNull();
  });

  it("names each viewer in a freshly opened panel, from main's listing alone (no events seen here)", async () => {
    const fake = createFakeApi();
    fake.ok('redemptions:list', [
      redemptionGroup({ id: 'rw-a', title: 'Hydrate' }, ['a1', 'a2'], ['nightowl_tv', null]),
    ]);
    const redemptions = new RedemptionsState(fake.api);
    await redemptions.load();
    const r = render(RedemptionQueue, { props: { redemptions, canManage: true } });
    const row = (id: string) => r.container.querySelector<HTMLElement>(`[data-redemption-id="${id}"]`)!;
    expect(row('a1').textContent).toContain('nightowl_tv');
    expect(row('a1').textContent).not.toMatch(/#\d/);
    expect(screen.getByRole('button', { name: "Accept nightowl_tv's redemption" })).toBeTruthy();
    // Neither main nor Kick knew the second one: a plain stand-in, not a bare id.
    expect(row('a2').textContent).toContain('viewer #501');
  });

  it('select all, accept: one call, successes leave, failures stay with Kick reason', async () => {
    const { fake, item } = await setup();
    fake.ok('redemptions:accept', [{ id: 'a2', reason: 'NOT_PENDING' }]);
    await fireEvent.click(screen.getByLabelText('Select all'));
    await fireEvent.click(screen.getByRole('button', { name: 'Accept 3' }));
    await settle();
    expect(fake.argsOf('redemptions:accept')).toEqual([[{ ids: ['a1', 'a2', 'b1'] }]]);
    expect(item('a1')).toBeNull();
    expect(item('b1')).toBeNull();
    expect(within(item('a2')).getByRole('alert').textContent).toBe('Already accepted or rejected elsewhere.');
  });

  it('rejects one reward group', async () => {
    const { fake } = await setup();
    await fireEvent.click(screen.getByLabelText('Select all Hydrate redemptions'));
    await fireEvent.click(screen.getByRole('button', { name: 'Reject 2' }));
    await settle();
    expect(fake.argsOf('redemptions:reject')).toEqual([[{ ids: ['a1', 'a2'] }]]);
  });

  it('accepts a single item with its own button', async () => {
    const { fake, item } = await setup();
    await fireEvent.click(within(item('b1')).getByRole('button', { name: /^Accept/ }));
    await settle();
    expect(fake.argsOf('redemptions:accept')).toEqual([[{ ids: ['b1'] }]]);
  });

  it('shows the whole-call error', async () => {
    const { fake } = await setup();
    fake.fail('redemptions:reject', 'MissingScope', 'channel:rewards:write is not granted');
    await fireEvent.click(screen.getByLabelText('Select all'));
    await fireEvent.click(screen.getByRole('button', { name: 'Reject 3' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('does not have your permission');
  });

  it('shows an empty state', async () => {
    const fake = createFakeApi();
    const redemptions = new RedemptionsState(fake.api);
    await redemptions.load();
    render(RedemptionQueue, { props: { redemptions, canManage: true } });
    expect(screen.getByText('No pending redemptions.')).toBeTruthy();
  });
});

import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import RedemptionQueue from '../../../../renderer/src/components/RedemptionQueue.svelte';
import { RedemptionsState } from '../../../../renderer/src/lib/state/redemptions.svelte';
import { toastsContext, ToastsState } from '../../../../renderer/src/lib/state/toasts.svelte';
import Toasts from '../../../../renderer/src/components/Toasts.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
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
  const clock = manualClock();
  const toasts = new ToastsState(clock);
  const r = render(RedemptionQueue, { props: { redemptions, canManage }, context: toastsContext(toasts) });
  render(Toasts, { props: { toasts } });
  const item = (id: string) => r.container.querySelector<HTMLElement>(`[data-redemption-id="${id}"]`)!;
  return { fake, redemptions, item, clock };
}

/** The open confirm dialog. */
const dialog = () => screen.getByRole('alertdialog');
/** The results region's text. */
const results = () => screen.getByRole('region', { name: 'Results' }).textContent ?? '';

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
    const r = render(RedemptionQueue, {
      props: { redemptions, canManage: true },
      context: toastsContext(new ToastsState(manualClock())),
    });
    const row = (id: string) => r.container.querySelector<HTMLElement>(`[data-redemption-id="${id}"]`)!;
    expect(row('a1').textContent).toContain('nightowl_tv');
    expect(row('a1').textContent).not.toMatch(/#\d/);
    expect(screen.getByRole('button', { name: "Accept nightowl_tv's redemption" })).toBeTruthy();
    // Neither main nor Kick knew the second one: a plain stand-in, not a bare id.
    expect(row('a2').textContent).toContain('viewer #501');
  });

  it('select all, accept: asks first, one call, successes leave, failures stay with Kick reason, a toast counts', async () => {
    const { fake, item } = await setup();
    fake.ok('redemptions:accept', [{ id: 'a2', reason: 'NOT_PENDING' }]);
    await fireEvent.click(screen.getByLabelText('Select all'));
    await fireEvent.click(screen.getByRole('button', { name: 'Accept 3' }));
    expect(dialog().textContent).toContain('Accept 3 redemptions of 2 rewards?');
    expect(fake.argsOf('redemptions:accept')).toEqual([]);
    await fireEvent.click(within(dialog()).getByRole('button', { name: 'Accept 3 redemptions' }));
    await settle();
    expect(fake.argsOf('redemptions:accept')).toEqual([[{ ids: ['a1', 'a2', 'b1'] }]]);
    expect(item('a1')).toBeNull();
    expect(item('b1')).toBeNull();
    expect(within(item('a2')).getByRole('alert').textContent).toBe('Already accepted or rejected elsewhere.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(results()).toContain('2 accepted, 1 failed');
    expect(results()).toContain('Already accepted or rejected elsewhere.');
  });

  it('rejects one reward group after a confirm naming the reward, and says how many', async () => {
    const { fake, clock } = await setup();
    await fireEvent.click(screen.getByLabelText('Select all Hydrate redemptions'));
    await fireEvent.click(screen.getByRole('button', { name: 'Reject 2' }));
    expect(dialog().textContent).toContain('Reject 2 redemptions of “Hydrate”?');
    await fireEvent.click(within(dialog()).getByRole('button', { name: 'Reject 2 redemptions' }));
    await settle();
    expect(fake.argsOf('redemptions:reject')).toEqual([[{ ids: ['a1', 'a2'] }]]);
    expect(results()).toContain('2 rejected');
    // The result leaves by itself, on the panel's clock.
    clock.advance(5_000);
    await settle();
    expect(results()).not.toContain('2 rejected');
  });

  it('Cancel and Escape leave every redemption waiting, with nothing sent', async () => {
    const { fake, item } = await setup();
    await fireEvent.click(screen.getByLabelText('Select all Hydrate redemptions'));
    await fireEvent.click(screen.getByRole('button', { name: 'Accept 2' }));
    // Focus starts on Cancel, so an Enter pressed again on the heels of the click does not accept.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Reject 2' }));
    await fireEvent.keyDown(dialog(), { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.argsOf('redemptions:accept')).toEqual([]);
    expect(fake.argsOf('redemptions:reject')).toEqual([]);
    expect(item('a1')).not.toBeNull();
    expect(item('a2')).not.toBeNull();
    expect(results()).toBe('');
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
    await fireEvent.click(within(dialog()).getByRole('button', { name: 'Reject 3 redemptions' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('does not have your permission');
    expect(results()).toContain('None rejected: 3 failed');
  });

  it('shows an empty state', async () => {
    const fake = createFakeApi();
    const redemptions = new RedemptionsState(fake.api);
    await redemptions.load();
    render(RedemptionQueue, {
      props: { redemptions, canManage: true },
      context: toastsContext(new ToastsState(manualClock())),
    });
    expect(screen.getByText('No pending redemptions.')).toBeTruthy();
  });
});

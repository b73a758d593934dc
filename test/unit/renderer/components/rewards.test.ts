import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { ALLOWED } from '../../../../renderer/src/lib/access';
import { describe, expect, it } from 'vitest';
import RewardsManager from '../../../../renderer/src/components/RewardsManager.svelte';
import { RewardsState } from '../../../../renderer/src/lib/state/rewards.svelte';
import { createFakeApi, settle } from '../fake-api';
import { reward } from '../fixtures';

async function setup() {
  const fake = createFakeApi();
  const mine = reward({ id: 'mine', title: 'Hydrate' });
  const theirs = { ...reward({ id: 'theirs', title: 'Bot reward' }), canManage: false };
  fake.ok('rewards:list', [mine, theirs]);
  const rewards = new RewardsState(fake.api);
  await rewards.load();
  const r = render(RewardsManager, { props: { rewards, access: ALLOWED } });
  const rowOf = (title: string) => screen.getByText(title).closest('li')!;
  return { fake, rewards, rowOf, ...r };
}

describe('RewardsManager', () => {
  it('shows rewards from another app read-only', async () => {
    const { rowOf } = await setup();
    expect(within(rowOf('Hydrate')).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(rowOf('Bot reward')).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(rowOf('Bot reward')).getByText(/read-only/)).toBeTruthy();
  });

  it('enforces the limits in the form before sending', async () => {
    const { fake } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'New reward' }));
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save reward' });
    expect(save.disabled).toBe(true);
    expect(screen.getByText('Title: required.')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText(/^Title/), { target: { value: 'x'.repeat(51) } });
    expect(screen.getByText('Title: at most 50 characters (now 51).')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText(/^Description/), { target: { value: 'd'.repeat(201) } });
    expect(screen.getByText(/Description: at most 200 characters/)).toBeTruthy();
    await fireEvent.input(screen.getByLabelText(/Cost/), { target: { value: '0' } });
    expect(screen.getByText('Cost: a whole number of at least 1.')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText(/Colour/), { target: { value: 'green' } });
    expect(screen.getByText(/Colour: a hex colour/)).toBeTruthy();
    expect(save.disabled).toBe(true);
    await fireEvent.input(screen.getByLabelText(/^Title/), { target: { value: 'Stretch' } });
    await fireEvent.input(screen.getByLabelText(/^Description/), { target: { value: 'Get up' } });
    await fireEvent.input(screen.getByLabelText(/Cost/), { target: { value: '250' } });
    await fireEvent.input(screen.getByLabelText(/Colour/), { target: { value: '#ff00aa' } });
    expect(save.disabled).toBe(false);
    fake.ok('rewards:create', reward({ id: 'new', title: 'Stretch', cost: 250 }));
    await fireEvent.click(save);
    await settle();
    expect(fake.argsOf('rewards:create')).toEqual([
      [
        {
          title: 'Stretch',
          description: 'Get up',
          cost: 250,
          backgroundColor: '#ff00aa',
          isEnabled: true,
          isUserInputRequired: false,
          shouldRedemptionsSkipRequestQueue: false,
        },
      ],
    ]);
    expect(screen.queryByRole('button', { name: 'Save reward' })).toBeNull();
    expect(screen.getByText('Stretch')).toBeTruthy();
  });

  it('edits only the changed fields and shows the error from main', async () => {
    const { fake, rowOf } = await setup();
    await fireEvent.click(within(rowOf('Hydrate')).getByRole('button', { name: 'Edit' }));
    await fireEvent.input(screen.getByLabelText(/Cost/), { target: { value: '300' } });
    fake.fail('rewards:update', 'Validation', 'cost: must be at least 1');
    await fireEvent.click(screen.getByRole('button', { name: 'Save reward' }));
    await settle();
    expect(fake.argsOf('rewards:update')).toEqual([[{ id: 'mine', patch: { cost: 300 } }]]);
    expect(screen.getByRole('alert').textContent).toContain('cost: must be at least 1');
  });

  it('pauses and disables a reward', async () => {
    const { fake, rowOf } = await setup();
    fake.handle('rewards:update', (a: { id: string; patch: { isPaused?: boolean } }) => ({
      ok: true,
      value: reward({ id: a.id, title: 'Hydrate', is_paused: a.patch.isPaused ?? false }),
    }));
    await fireEvent.click(within(rowOf('Hydrate')).getByRole('button', { name: 'Pause' }));
    await settle();
    expect(fake.argsOf('rewards:update')[0]).toEqual([{ id: 'mine', patch: { isPaused: true } }]);
    expect(within(rowOf('Hydrate')).getByRole('button', { name: 'Resume' })).toBeTruthy();
    await fireEvent.click(within(rowOf('Hydrate')).getByRole('button', { name: 'Disable' }));
    await settle();
    expect(fake.argsOf('rewards:update')[1]).toEqual([{ id: 'mine', patch: { isEnabled: false } }]);
  });

  it('deletes only after a confirm', async () => {
    const { fake, rowOf } = await setup();
    await fireEvent.click(within(rowOf('Hydrate')).getByRole('button', { name: 'Delete' }));
    expect(fake.argsOf('rewards:delete')).toHaveLength(0);
    await fireEvent.click(within(rowOf('Hydrate')).getByRole('button', { name: 'Confirm delete' }));
    await settle();
    expect(fake.argsOf('rewards:delete')).toEqual([[{ id: 'mine' }]]);
    expect(screen.queryByText('Hydrate')).toBeNull();
  });
});

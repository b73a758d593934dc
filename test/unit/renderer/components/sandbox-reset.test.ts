/**
 * "Reset the sandbox" in Health ([sandbox notes](../../../../docs/sandbox.md#reset-the-sandbox)): shown only
 * in sandbox mode, it asks first with what goes and what stays, Cancel does nothing, and it ends with a toast
 * of the outcome, the failure's reason behind Details.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import HealthPanel from '../../../../renderer/src/components/HealthPanel.svelte';
import Toasts from '../../../../renderer/src/components/Toasts.svelte';
import { HealthState } from '../../../../renderer/src/lib/state/health.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { toastsContext, ToastsState } from '../../../../renderer/src/lib/state/toasts.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { health } from '../fixtures';

const WORDS = 'This clears the simulated channel, its rewards and sign-in. Your Greenroom settings stay.';

function setup(mode: 'sandbox' | 'kick' = 'sandbox') {
  const fake = createFakeApi();
  const state = new HealthState(fake.api);
  state.apply(health({ mode }));
  const toasts = new ToastsState(manualClock());
  const props = { health: state, session: new SessionState(fake.api), copy: () => Promise.resolve(true), now: 0 };
  render(HealthPanel, { props: { ...props, api: fake.api }, context: toastsContext(toasts) });
  render(Toasts, { props: { toasts } });
  const results = () => screen.getByRole('region', { name: 'Results' }).textContent ?? '';
  return { fake, results };
}

describe('Reset the sandbox', () => {
  it('is not offered on Kick', () => {
    setup('kick');
    expect(screen.queryByRole('button', { name: 'Reset the sandbox…' })).toBeNull();
  });

  it('asks first, saying what goes and what stays; Cancel resets nothing', async () => {
    const { fake, results } = setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the sandbox…' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Reset the sandbox?' });
    expect(dialog.textContent).toContain(WORDS);
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await settle();
    expect(fake.argsOf('sandbox:reset')).toEqual([]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(results()).toBe('');
  });

  it('resets after the confirm and says so', async () => {
    const { fake, results } = setup();
    fake.ok('sandbox:reset', null);
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the sandbox…' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the sandbox' }));
    await settle();
    expect(fake.argsOf('sandbox:reset')).toEqual([[]]);
    expect(results()).toContain('The sandbox was reset: a fresh simulated channel, and you are signed out');
  });

  it('says it was not reset, with the reason behind Details', async () => {
    const { fake, results } = setup();
    fake.fail('sandbox:reset', 'Network', 'the sandbox did not answer');
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the sandbox…' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Reset the sandbox' }));
    await settle();
    expect(results()).toContain('The sandbox was not reset');
    expect(screen.getByRole('region', { name: 'Results' }).querySelector('details')?.textContent).toContain(
      'the sandbox did not answer',
    );
  });
});

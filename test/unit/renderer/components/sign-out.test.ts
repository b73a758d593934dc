import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SignOutButton from '../../../../renderer/src/components/SignOutButton.svelte';
import Toasts from '../../../../renderer/src/components/Toasts.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { toastsContext, ToastsState } from '../../../../renderer/src/lib/state/toasts.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { account } from '../fixtures';

function setup() {
  const fake = createFakeApi();
  const session = new SessionState(fake.api);
  session.applyAccount(account());
  const toasts = new ToastsState(manualClock());
  render(SignOutButton, { props: { session, channel: 'kick.com/streamer' }, context: toastsContext(toasts) });
  render(Toasts, { props: { toasts } });
  const results = () => screen.getByRole('region', { name: 'Results' }).textContent ?? '';
  return { fake, session, results };
}

describe('SignOutButton', () => {
  it('asks first, naming the channel; Cancel keeps the streamer signed in', async () => {
    const { fake, session, results } = setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Sign out of kick.com/streamer?' });
    expect(dialog.textContent).toContain('chat, alerts, moderation and the chat bot wait');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await settle();
    expect(fake.argsOf('auth:sign-out')).toEqual([]);
    expect(session.signedIn).toBe(true);
    expect(results()).toBe('');
  });

  it('signs out after the confirm and says so', async () => {
    const { fake, session, results } = setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Sign out now' }));
    await settle();
    expect(fake.argsOf('auth:sign-out')).toHaveLength(1);
    expect(session.signedIn).toBe(false);
    expect(results()).toContain('Signed out');
  });

  it('says it failed, and why, when main could not sign out', async () => {
    const { fake, session, results } = setup();
    fake.fail('auth:sign-out', 'Network', 'offline');
    await fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Sign out now' }));
    await settle();
    expect(session.signedIn).toBe(true);
    expect(results()).toContain('Still signed in: signing out failed');
  });
});

import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SignInBanner from '../../../../renderer/src/components/SignInBanner.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi, settle } from '../fake-api';
import { account, snapshot } from '../fixtures';

async function setup(acc = account({ signedIn: false, scopes: [] })) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ account: acc }));
  const session = new SessionState(fake.api);
  await session.load();
  const r = render(SignInBanner, { props: { session } });
  return { fake, session, ...r };
}

describe('SignInBanner', () => {
  it('offers sign-in when signed out', async () => {
    await setup();
    expect(screen.getByRole('button', { name: 'Sign in with Kick' })).toBeTruthy();
  });

  it('shows the signed-out reason and signs in again in one click', async () => {
    const { fake } = await setup(
      account({ signedIn: false, signedOutReason: 'sign in again: refresh token rejected' }),
    );
    expect(screen.getByText(/refresh token rejected/)).toBeTruthy();
    fake.ok('auth:start-login', account());
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    await settle();
    expect(fake.argsOf('auth:start-login')).toEqual([[{}]]);
    expect(screen.queryByRole('button', { name: /Sign in/ })).toBeNull();
  });

  it('waits for the browser and can cancel', async () => {
    const { fake } = await setup();
    const held = fake.hold('auth:start-login');
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in with Kick' }));
    expect(screen.getByText(/Waiting for you to approve/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    held.release({ ok: false, error: { code: 'AuthCancelled', message: 'cancelled' } });
    await settle();
    expect(fake.argsOf('auth:cancel-login')).toEqual([[]]);
    expect(screen.getByRole('button', { name: 'Sign in with Kick' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows why a sign-in failed', async () => {
    const { fake } = await setup();
    fake.fail('auth:start-login', 'AuthTimedOut', 'no callback');
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in with Kick' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Sign-in timed out');
  });

  it('renders nothing when signed in', async () => {
    const { container } = await setup(account());
    expect(container.textContent?.trim()).toBe('');
  });
});

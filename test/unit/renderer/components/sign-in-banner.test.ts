import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SignInBanner from '../../../../renderer/src/components/SignInBanner.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi, settle } from '../fake-api';
import { account, snapshot } from '../fixtures';

const LINK = 'https://id.kick.com/oauth/authorize?client_id=abc&state=xyz';

async function setup(acc = account({ signedIn: false, scopes: [] })) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ account: acc }));
  const session = new SessionState(fake.api);
  await session.load();
  const copied: string[] = [];
  const opened: string[] = [];
  const copy = (text: string) => {
    copied.push(text);
    return Promise.resolve(true);
  };
  const openLink = (url: string) => void opened.push(url);
  const r = render(SignInBanner, { props: { session, copy, openLink } });
  return { fake, session, copied, opened, ...r };
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

  it('shows the sign-in link with Copy and Open while waiting, for a dock or browser panel', async () => {
    const { fake, session, copied, opened } = await setup();
    fake.hold('auth:start-login');
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in with Kick' }));
    // Main learns the link once its loopback listener is up and says so with session:changed.
    expect(screen.queryByRole('region', { name: 'Sign-in link' })).toBeNull();
    session.applyAccount(account({ signedIn: false, scopes: [], signingIn: true, signInUrl: LINK }));
    await settle();
    const region = screen.getByRole('region', { name: 'Sign-in link' });
    expect(region.textContent).toContain(LINK);
    await fireEvent.click(within(region).getByRole('button', { name: 'Copy link' }));
    await settle();
    expect(copied).toEqual([LINK]);
    expect(region.textContent).toContain('Copied.');
    await fireEvent.click(within(region).getByRole('button', { name: 'Open link' }));
    expect(opened).toEqual([LINK]);
    // Signed in: the link goes away with the wait.
    session.applyAccount(account());
    await settle();
    expect(screen.queryByRole('region', { name: 'Sign-in link' })).toBeNull();
  });

  it('shows why a sign-in failed', async () => {
    const { fake } = await setup();
    fake.fail('auth:start-login', 'AuthTimedOut', 'no callback');
    await fireEvent.click(screen.getByRole('button', { name: 'Sign in with Kick' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('Sign-in timed out');
    // The technical reason waits behind "Details".
    expect(screen.getByRole('alert').textContent).not.toContain('no callback');
  });

  it('renders nothing when signed in', async () => {
    const { container } = await setup(account());
    expect(container.textContent?.trim()).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import type { AccountView } from '../../../../shared/views';
import type { SessionState } from '../../../../electron/kick/auth/user-session';
import { AuthError, KickApiError } from '../../../../electron/kick/kick-errors';
import { type AccountKick, AccountService } from '../../../../electron/services/account';

const AUTHORIZE_URL = 'https://id.kick.com/oauth/authorize?client_id=c&state=s';

/** A Kick stand-in whose session the test drives and whose sign-in waits until the test lets it finish. */
function fakeKick(options: { userRead?: boolean } = {}) {
  let state: SessionState = { status: 'signed-out', reason: null };
  const listeners = new Set<(s: SessionState) => void>();
  const setState = (next: SessionState) => {
    state = next;
    listeners.forEach((l) => l(state));
  };
  const calls: string[] = [];
  let finishSignIn: (() => void) | null = null;
  const kick = {
    session: {
      state: () => state,
      onChange: (l: (s: SessionState) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    client: {
      fetchCurrentUser: () => {
        calls.push('fetchCurrentUser');
        return options.userRead === false
          ? Promise.reject(new KickApiError('MissingScope', 'needs user:read', { operation: 'fetchUser' }))
          : Promise.resolve({ user_id: 100001, name: 'sandbox_streamer', email: '', profile_picture: '' });
      },
      fetchChannel: () => {
        calls.push('fetchChannel');
        return Promise.resolve({ broadcaster_user_id: 100001, slug: 'sandbox-streamer' });
      },
    },
    signIn: (opts: { signal?: AbortSignal; scopes?: readonly string[]; onAuthorizeUrl?: (url: string) => void }) => {
      calls.push(`signIn ${opts.scopes?.join(',') ?? 'default'}`);
      // As the real sign-in does: the link is known once the loopback listener is up, a moment later.
      void Promise.resolve().then(() => opts.onAuthorizeUrl?.(AUTHORIZE_URL));
      return new Promise<void>((resolve, reject) => {
        finishSignIn = () => {
          setState({ status: 'signed-in', scopes: ['user:read', 'chat:write'], expiresAtMs: 5000 });
          resolve();
        };
        opts.signal?.addEventListener('abort', () => reject(new AuthError('AuthCancelled', 'Sign-in was cancelled')));
      });
    },
    signOut: () => {
      setState({ status: 'signed-out', reason: null });
      return Promise.resolve({ revoked: true });
    },
  } as unknown as AccountKick;
  return { kick, calls, setState, finish: () => finishSignIn?.() };
}

function setup(options: { userRead?: boolean } = {}) {
  const fake = fakeKick(options);
  const account = new AccountService({
    kick: fake.kick,
    log: () => undefined,
    scopes: () => ['user:read', 'chat:write'],
  });
  const views: AccountView[] = [];
  account.onChange((v) => views.push(v));
  account.start();
  return { ...fake, account, views };
}

describe('AccountService', () => {
  it('signs in with the configured scopes, shows the wait, then the account', async () => {
    const { account, views, finish, calls } = setup();
    const login = account.startLogin();
    await Promise.resolve();
    expect(account.view()).toMatchObject({ signedIn: false, signingIn: true });
    finish();
    const view = await login;
    expect(calls[0]).toBe('signIn user:read,chat:write');
    expect(view).toEqual({
      signedIn: true,
      accountLabel: 'sandbox_streamer',
      userId: 100001,
      scopes: ['user:read', 'chat:write'],
      expiresAtMs: 5000,
      signedOutReason: null,
      confirmed: true,
      signingIn: false,
      signInUrl: null,
    });
    expect(views.at(-1)).toEqual(view);
    expect(account.userId()).toBe(100001);
    // Fetched once per sign-in, not on every later session change (token refreshes).
    const fetches = calls.filter((c) => c === 'fetchCurrentUser').length;
    await account.requireUserId();
    expect(calls.filter((c) => c === 'fetchCurrentUser')).toHaveLength(fetches);
  });

  it('shows the authorize link while the sign-in waits, so a dock or browser panel can open it', async () => {
    const { account, views, finish } = setup();
    const login = account.startLogin();
    await Promise.resolve();
    await Promise.resolve();
    expect(account.view()).toMatchObject({ signingIn: true, signInUrl: AUTHORIZE_URL });
    expect(account.signInUrl()).toBe(AUTHORIZE_URL);
    expect(views.some((v) => v.signInUrl === AUTHORIZE_URL)).toBe(true);
    finish();
    await login;
    expect(account.view().signInUrl).toBeNull();
    expect(account.signInUrl()).toBeNull();
  });

  it('forgets the link of a cancelled sign-in', async () => {
    const { account } = setup();
    const login = account.startLogin().catch((error: unknown) => error);
    await Promise.resolve();
    await Promise.resolve();
    expect(account.signInUrl()).toBe(AUTHORIZE_URL);
    await account.cancelLogin();
    expect(await login).toMatchObject({ code: 'AuthCancelled' });
    expect(account.view()).toMatchObject({ signingIn: false, signInUrl: null });
  });

  it('names the broadcaster from their channel when user:read was not granted', async () => {
    const { account, finish } = setup({ userRead: false });
    const login = account.startLogin({ scopes: ['channel:read'] });
    finish();
    expect(await login).toMatchObject({ accountLabel: 'sandbox-streamer', userId: 100001 });
  });

  it('cancels a sign-in waiting for the browser', async () => {
    const { account } = setup();
    const login = account.startLogin();
    await account.cancelLogin();
    await expect(login).rejects.toMatchObject({ code: 'AuthCancelled' });
    expect(account.view().signingIn).toBe(false);
  });

  it('shows why the session ended, and refuses broadcaster actions while signed out', async () => {
    const { account, setState, views } = setup();
    setState({ status: 'signed-in', scopes: ['user:read'], expiresAtMs: 1 });
    await account.requireUserId();
    setState({ status: 'signed-out', reason: 'sign in again: refresh token rejected' });
    expect(views.at(-1)).toMatchObject({
      signedIn: false,
      accountLabel: null,
      userId: null,
      signedOutReason: 'sign in again: refresh token rejected',
    });
    expect(account.userId()).toBeNull();
    await expect(account.requireUserId()).rejects.toMatchObject({ code: 'NotSignedIn' });
  });

  it('signs out', async () => {
    const { account, setState } = setup();
    setState({ status: 'signed-in', scopes: [], expiresAtMs: 1 });
    await account.identity();
    expect(await account.signOut()).toEqual({ revoked: true });
    expect(account.view()).toMatchObject({ signedIn: false, userId: null });
  });
});

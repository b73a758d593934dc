/**
 * A saved sign-in is checked with Kick at start, not assumed from disk
 * (../../../../docs/chat-bot.md#live-status-comes-from-kick): it counts as confirmed only once the account was
 * read with it; while Kick cannot be reached it is read again with growing waits until Kick answers, and a
 * sign-in Kick refuses is signed out, never retried.
 */
import { describe, expect, it } from 'vitest';
import type { SessionState } from '../../../../electron/kick/auth/user-session';
import { AuthError, KickApiError } from '../../../../electron/kick/kick-errors';
import { type AccountKick, AccountService } from '../../../../electron/services/account';
import { ManualTimers } from '../chat-bot/chat-bot-fixtures';

/** Kick with a saved sign-in; each read of the user takes the next outcome the test queued. */
function savedSignIn(outcomes: (() => Promise<unknown>)[]) {
  let state: SessionState = { status: 'signed-in', scopes: ['user:read'], expiresAtMs: 9_999_999 };
  const listeners = new Set<(s: SessionState) => void>();
  let reads = 0;
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
        reads++;
        return outcomes.shift()!();
      },
    },
  } as unknown as AccountKick;
  const signOut = (reason: string) => {
    state = { status: 'signed-out', reason };
    listeners.forEach((l) => l(state));
  };
  const timers = new ManualTimers();
  const account = new AccountService({ kick, log: () => undefined, setTimer: timers.set, random: () => 0 });
  return { account, timers, signOut, reads: () => reads };
}

const unreachable = () =>
  Promise.reject(new KickApiError('Network', 'fetchUser: could not reach Kick', { operation: 'fetchUser' }));
const user = () => Promise.resolve({ user_id: 100001, name: 'sandbox_streamer', email: '', profile_picture: '' });
const flush = async () => {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
};

describe('the saved sign-in at start', () => {
  it('is confirmed once Kick answers, read again until it does', async () => {
    const s = savedSignIn([unreachable, unreachable, user]);
    s.account.start();
    await flush();
    expect(s.account.view()).toMatchObject({ signedIn: true, confirmed: false, userId: null });
    s.timers.advance(2_000);
    await flush();
    expect(s.reads()).toBe(2);
    s.timers.advance(3_999);
    await flush();
    expect(s.reads()).toBe(2);
    s.timers.advance(1);
    await flush();
    expect(s.account.view()).toMatchObject({ signedIn: true, confirmed: true, userId: 100001 });
    s.timers.advance(600_000);
    await flush();
    expect(s.reads()).toBe(3);
  });

  it('is signed out, not retried, when Kick refuses it', async () => {
    const s = savedSignIn([
      () => {
        s.signOut('sign in again: refresh token rejected');
        return Promise.reject(new AuthError('RefreshRejected', 'sign in again: refresh token rejected'));
      },
    ]);
    s.account.start();
    await flush();
    expect(s.account.view()).toMatchObject({
      signedIn: false,
      confirmed: false,
      signedOutReason: 'sign in again: refresh token rejected',
    });
    s.timers.advance(600_000);
    await flush();
    expect(s.reads()).toBe(1);
  });
});

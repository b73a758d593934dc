/**
 * A Kick client wired to undici's MockAgent with the network disabled, a manual clock and a sleep that
 * records instead of waiting: for unit tests of retries, validation and token handling.
 */
import { MockAgent } from 'undici';
import { AdjustableClock } from '../../electron/core/clock';
import { createKick, type Kick } from '../../electron/kick/create-kick';
import { MemorySecretStore } from '../../electron/secrets/secret-store';
import { KICK_SCOPES } from '../../shared/kick/scopes';

export const API = 'https://api.kick.test';
export const AUTH = 'https://id.kick.test';

export interface MockKick {
  kick: Kick;
  agent: MockAgent;
  api: ReturnType<MockAgent['get']>;
  auth: ReturnType<MockAgent['get']>;
  clock: AdjustableClock;
  store: MemorySecretStore;
  sleeps: number[];
  opened: string[];
}

export function createMockKick(options: { random?: () => number } = {}): MockKick {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const clock = new AdjustableClock({ now: () => 1_750_000_000_000 });
  const store = new MemorySecretStore();
  const sleeps: number[] = [];
  const opened: string[] = [];
  const kick = createKick(
    {
      apiUrl: API,
      authUrl: AUTH,
      clientId: 'client-1',
      clientSecret: 'secret-1',
      redirectUri: 'http://127.0.0.1:0/callback',
      scopes: KICK_SCOPES,
    },
    {
      clock,
      store,
      dispatcher: agent,
      openExternal: (url) => {
        opened.push(url);
        return Promise.resolve();
      },
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
      random: options.random ?? (() => 0.5),
    },
  );
  return { kick, agent, api: agent.get(API), auth: agent.get(AUTH), clock, store, sleeps, opened };
}

/** Signs the mock client in with a user token that has every scope (or the ones given). */
export async function signInMock(
  mock: MockKick,
  scopes: readonly string[] = KICK_SCOPES,
  expiresIn = 3600,
): Promise<void> {
  await mock.kick.session.setUserToken({
    access_token: 'user-token-1',
    refresh_token: 'refresh-1',
    expires_in: expiresIn,
    scope: scopes.join(' '),
  });
}

export const json = { headers: { 'content-type': 'application/json' } };

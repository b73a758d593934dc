/**
 * Builds the Kick side of Greenroom from configuration and injected adapters (clock, HTTP dispatcher,
 * secret store, browser opener). Electron's main, the panel-only mode and the tests all call this.
 */
import type { Dispatcher } from 'undici';
import type { KickTokenIntrospection } from '../../shared/kick/resources';
import type { Clock } from '../core/clock';
import type { SecretStore } from '../secrets/secret-store';
import { AppTokenManager } from './auth/app-token';
import { KickOAuth } from './auth/oauth-endpoints';
import { type OpenExternal, signInWithKick } from './auth/sign-in';
import { UserSession } from './auth/user-session';
import { KickApiCore } from './kick-api-core';
import { KickClient } from './kick-client';
import { KickHttp, type KickHttpDeps } from './kick-http';

export interface KickConfig {
  apiUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Default http://127.0.0.1:3000/callback ([seed §5](../../docs/product-spec.md#5-authentication) rule 3); must match the app's registered URL exactly. */
  redirectUri: string;
  scopes: readonly string[];
  requestTimeoutMs?: number;
  /** How long sign-in waits for the browser; default 300 s. */
  signInTimeoutMs?: number;
}

export interface KickDeps {
  clock: Clock;
  store: SecretStore;
  openExternal: OpenExternal;
  dispatcher?: Dispatcher;
  sleep?: KickHttpDeps['sleep'];
  random?: () => number;
}

export interface Kick {
  client: KickClient;
  session: UserSession;
  appToken: AppTokenManager;
  oauth: KickOAuth;
  /** Runs the browser sign-in and keeps the tokens; resolves when signed in. `onAuthorizeUrl` sees the link. */
  signIn(options?: {
    signal?: AbortSignal;
    scopes?: readonly string[];
    onAuthorizeUrl?: (url: string) => void;
  }): Promise<void>;
  /** Revokes both tokens at Kick (best effort) and wipes them. */
  signOut(): Promise<{ revoked: boolean }>;
  /** Introspects the user token (default) or the app token. */
  introspect(which?: 'user' | 'app'): Promise<KickTokenIntrospection>;
  close(): Promise<void>;
}

export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:3000/callback';

export function createKick(config: KickConfig, deps: KickDeps): Kick {
  const http = new KickHttp({
    apiUrl: config.apiUrl,
    authUrl: config.authUrl,
    clock: deps.clock,
    dispatcher: deps.dispatcher,
    timeoutMs: config.requestTimeoutMs,
    sleep: deps.sleep,
    random: deps.random,
    userAgent: 'Greenroom (+https://github.com/greenroom-app/greenroom)',
  });
  const oauth = new KickOAuth(http, { clientId: config.clientId, clientSecret: config.clientSecret }, deps.clock);
  const appToken = new AppTokenManager({ oauth, store: deps.store, clock: deps.clock });
  const session = new UserSession({ oauth, store: deps.store, clock: deps.clock });
  const client = new KickClient(new KickApiCore({ http, appToken, session }));
  return {
    client,
    session,
    appToken,
    oauth,
    async signIn(options = {}) {
      const tokens = await signInWithKick({
        oauth,
        authUrl: config.authUrl,
        redirectUri: config.redirectUri,
        scopes: options.scopes ?? config.scopes,
        openExternal: deps.openExternal,
        timeoutMs: config.signInTimeoutMs,
        signal: options.signal,
        onAuthorizeUrl: options.onAuthorizeUrl,
      });
      await session.adopt(tokens);
    },
    signOut: () => session.signOut(),
    async introspect(which = 'user') {
      const token = which === 'user' ? await session.accessToken() : await appToken.get();
      return oauth.introspect(token);
    },
    close: () => http.close(),
  };
}

/**
 * A real Kick client (createKick) pointed at a running sandbox, with an in-memory or on-disk secret store
 * and an opener that plays the browser: it follows the authorize redirect with an HTTP client.
 */
import { type Dispatcher, request } from 'undici';
import { AdjustableClock, type Clock } from '../../electron/core/clock';
import { createKick, type Kick } from '../../electron/kick/create-kick';
import type { OpenExternal } from '../../electron/kick/auth/sign-in';
import { MemorySecretStore, type SecretStore } from '../../electron/secrets/secret-store';
import type { Sandbox } from '../../sandbox/index';
import { KICK_SCOPES } from '../../shared/kick/scopes';

export interface BrowserVisit {
  authorizeUrl: string;
  callbackStatus: number;
  callbackPage: string;
}

export interface TestBrowser {
  /** Pass as `openExternal`. */
  open: OpenExternal;
  visits: BrowserVisit[];
  /** Waits until every page the browser loaded has been read (sign-in resolves before the tab renders). */
  settled(): Promise<void>;
}

/**
 * A browser for tests: registers the redirect URI with the sandbox app (as the developer would in Kick's
 * dashboard), loads the authorize URL, and follows its redirect to the loopback listener.
 * `mutateCallback` lets a test tamper with the callback URL.
 */
export function createTestBrowser(sandbox: Sandbox, mutateCallback?: (url: URL) => URL): TestBrowser {
  const visits: BrowserVisit[] = [];
  const loads: Promise<void>[] = [];
  const visit = async (authorizeUrl: string): Promise<void> => {
    const redirectUri = new URL(authorizeUrl).searchParams.get('redirect_uri');
    if (redirectUri && !sandbox.ctx.app.redirectUris.includes(redirectUri)) {
      sandbox.ctx.app.redirectUris.push(redirectUri);
    }
    const consent = await request(authorizeUrl, { method: 'GET' });
    await consent.body.text();
    const location = consent.headers.location;
    if (consent.statusCode !== 302 || typeof location !== 'string') {
      throw new Error(`authorize answered ${consent.statusCode}`);
    }
    const callback = mutateCallback ? mutateCallback(new URL(location)) : new URL(location);
    const page = await request(callback, { method: 'GET' });
    visits.push({ authorizeUrl, callbackStatus: page.statusCode, callbackPage: await page.body.text() });
  };
  return {
    visits,
    open: (url) => {
      const load = visit(url);
      loads.push(load);
      return load;
    },
    settled: async () => {
      await Promise.all(loads);
    },
  };
}

export function kickOnSandbox(
  sandbox: Sandbox,
  options: {
    store?: SecretStore;
    openExternal?: OpenExternal;
    clock?: Clock;
    signInTimeoutMs?: number;
    scopes?: readonly string[];
    dispatcher?: Dispatcher;
    sleep?: (ms: number) => Promise<void>;
    apiUrl?: string;
    requestTimeoutMs?: number;
  } = {},
): Kick {
  const described = sandbox.describe();
  return createKick(
    {
      apiUrl: options.apiUrl ?? described.apiUrl,
      authUrl: described.authUrl,
      clientId: described.clientId,
      clientSecret: described.clientSecret,
      redirectUri: 'http://127.0.0.1:0/callback',
      scopes: options.scopes ?? KICK_SCOPES,
      signInTimeoutMs: options.signInTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs,
    },
    {
      clock: options.clock ?? new AdjustableClock(),
      store: options.store ?? new MemorySecretStore(),
      openExternal: options.openExternal ?? (() => Promise.reject(new Error('no browser in this test'))),
      dispatcher: options.dispatcher,
      sleep: options.sleep,
    },
  );
}

/**
 * Sign-in with Kick: authorization code + PKCE through the system browser and a one-shot loopback
 * listener ([reference §2.1–2.2](../../../docs/kick-wire-reference.md#21-authorize), [seed §5](../../../docs/product-spec.md#5-authentication)). The browser is opened through the injected opener.
 */
import type { KickOAuth, TokenSet } from './oauth-endpoints';
import { createAuthorizeRequest, readAuthorizeCallback } from './authorize-request';
import { openLoopbackListener } from './loopback-listener';
import { AppError, errResult, okResult } from '../../../shared/errors';
import { LIMITS } from '../../../shared/limits';

/** Opens a URL in the user's browser (Electron's shell.openExternal in the app; a capture in tests). */
export type OpenExternal = (url: string) => Promise<void>;

export interface SignInDeps {
  oauth: KickOAuth;
  authUrl: string;
  redirectUri: string;
  scopes: readonly string[];
  openExternal: OpenExternal;
  /**
   * Told the authorize link before the browser is asked to open it: a panel in an OBS dock or a browser
   * cannot rely on main opening one, so the link is shown there too.
   */
  onAuthorizeUrl?: (url: string) => void;
  /** Default 300 s ([seed §5](../../../docs/product-spec.md#5-authentication) rule 4). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function signInWithKick(options: SignInDeps): Promise<TokenSet> {
  const listener = await openLoopbackListener({
    redirectUri: options.redirectUri,
    timeoutMs: options.timeoutMs ?? LIMITS.authorizationWaitSecondsDefault * 1000,
    signal: options.signal,
  });
  try {
    const request = await createAuthorizeRequest({
      authUrl: options.authUrl,
      clientId: options.oauth.clientId,
      redirectUri: listener.redirectUri,
      scopes: options.scopes,
    });
    listener.expectState(request.state);
    options.onAuthorizeUrl?.(request.url);
    // The opener may resolve late (a test browser waits for the page we answer only after the exchange),
    // so wait for the callback, and fail early only if opening the browser itself fails.
    const opening = options.openExternal(request.url);
    const openFailed = opening.then(
      () => new Promise<never>(() => undefined),
      (error: unknown) => {
        throw error;
      },
    );
    const callbackUrl = await Promise.race([listener.callback, openFailed]);
    const code = readAuthorizeCallback({
      authUrl: options.authUrl,
      clientId: options.oauth.clientId,
      callbackUrl,
      expectedState: request.state,
    });
    const tokens = await options.oauth.exchangeCode({
      code,
      redirectUri: request.redirectUri,
      codeVerifier: request.codeVerifier,
    });
    listener.finish(okResult(null));
    return tokens;
  } catch (error) {
    listener.finish(errResult(error instanceof AppError ? error.message : 'Something went wrong'));
    throw error;
  }
}

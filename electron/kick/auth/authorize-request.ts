/**
 * Builds Kick's authorize URL with a fresh PKCE verifier and state per attempt ([reference §2.1](../../../docs/kick-wire-reference.md#21-authorize)), and reads
 * the callback with oauth4webapi's strict parser (duplicate parameters, state mismatch and `error`
 * responses are all rejected).
 */
import * as oauth from 'oauth4webapi';
import { AuthError } from '../kick-errors';
import { WIRE_ASSUMPTIONS } from '../wire-assumptions';

export interface AuthorizeRequest {
  url: string;
  state: string;
  codeVerifier: string;
  redirectUri: string;
}

export async function createAuthorizeRequest(input: {
  authUrl: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
}): Promise<AuthorizeRequest> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const challenge = await oauth.calculatePKCECodeChallenge(codeVerifier);
  const params: [string, string][] = [];
  // Kick's frontend rewrites the first `127.0.0.1` in the URL to `localhost` ([reference §2.1](../../../docs/kick-wire-reference.md#21-authorize)); a decoy
  // parameter placed before redirect_uri absorbs that rewrite so the redirect still matches exactly.
  if (input.redirectUri.includes('127.0.0.1')) {
    params.push([WIRE_ASSUMPTIONS.loopbackRewrite.decoyParam, WIRE_ASSUMPTIONS.loopbackRewrite.decoyValue]);
  }
  params.push(
    ['client_id', input.clientId],
    ['response_type', 'code'],
    ['redirect_uri', input.redirectUri],
    ['scope', input.scopes.join(' ')],
    ['code_challenge', challenge],
    ['code_challenge_method', 'S256'],
    ['state', state],
  );
  const url = new URL('/oauth/authorize', input.authUrl);
  // %20 for spaces: Kick's docs accept both, and %20 survives every URL parser.
  url.search = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return { url: url.toString(), state, codeVerifier, redirectUri: input.redirectUri };
}

/** Validates the callback's query and returns the authorization code. */
export function readAuthorizeCallback(input: {
  authUrl: string;
  clientId: string;
  callbackUrl: URL;
  expectedState: string;
}): string {
  const as: oauth.AuthorizationServer = { issuer: new URL(input.authUrl).origin };
  const client: oauth.Client = { client_id: input.clientId };
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, input.callbackUrl, input.expectedState);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      const code = error.error === 'access_denied' ? 'AuthDenied' : 'AuthCallbackInvalid';
      const text = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
      throw new AuthError(
        code,
        code === 'AuthDenied' ? 'Sign-in was declined on Kick' : `Kick refused the sign-in (${text})`,
        { cause: error },
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    if (/state/i.test(message)) {
      throw new AuthError('AuthStateMismatch', "The sign-in callback did not carry this attempt's state", {
        cause: error,
      });
    }
    throw new AuthError('AuthCallbackInvalid', `The sign-in callback was malformed (${message})`, { cause: error });
  }
  const code = params.get('code');
  if (!code) {
    throw new AuthError('AuthCallbackInvalid', 'The sign-in callback had no code');
  }
  return code;
}

/**
 * Validating `GET /oauth/authorize` ([reference §2.1](../../docs/kick-wire-reference.md#21-authorize)). Problems that make the redirect URI untrustworthy,
 * or that Kick answers with its documented `400 {"error":"Invalid request"}`, end the request with that
 * JSON and never redirect. Once client and redirect URI are known good, scope and PKCE method problems go
 * back to the client's redirect URI as RFC 6749 §4.1.2.1 errors, which is what Kick clients check for.
 */
import { isKickScope, parseScopeString } from '../../shared/kick/scopes';
import { HttpAnswer } from '../http/types';
import type { SandboxApp, SandboxState } from '../state';
import { requiredParam } from './form';
import { rewriteFirstLoopbackIp } from './loopback-quirk';
import { oauthFail, redirectError } from './oauth-errors';
import { isS256Challenge, PKCE_METHOD } from './pkce';

/** A validated authorization request, ready to be approved or denied. */
export interface AuthorizeRequest {
  app: SandboxApp;
  redirectUri: string;
  /** The client's CSRF value, echoed back on every redirect. */
  state: string;
  scopes: string[];
  codeChallenge: string;
}

/**
 * Parses the raw authorize query the way Kick's frontend does (first `127.0.0.1` rewritten to
 * `localhost`, see loopback-quirk.ts) and validates it. Throws an HttpAnswer carrying either the 400
 * JSON or the error redirect.
 */
export function parseAuthorizeRequest(state: SandboxState, rawQuery: string): AuthorizeRequest {
  const query = new URLSearchParams(rewriteFirstLoopbackIp(rawQuery));

  const clientId = requiredParam(query, 'client_id');
  const app = state.appByClientId(clientId);
  if (!app) {
    oauthFail('client_id: no app is registered with this client id');
  }

  const redirectUri = requiredParam(query, 'redirect_uri');
  if (!app.redirectUris.includes(redirectUri)) {
    oauthFail(`redirect_uri: ${redirectUri} does not exactly match a redirect URI registered for this app`);
  }

  const responseType = requiredParam(query, 'response_type');
  if (responseType !== 'code') {
    oauthFail('response_type: must be code');
  }

  const clientState = requiredParam(query, 'state');
  const scopes = parseScopeString(requiredParam(query, 'scope'));
  if (scopes.length === 0) {
    oauthFail('scope: is required');
  }
  const codeChallenge = requiredParam(query, 'code_challenge');
  const method = requiredParam(query, 'code_challenge_method');

  const unknown = scopes.filter((s) => !isKickScope(s));
  if (unknown.length > 0) {
    throw new HttpAnswer(
      redirectError(redirectUri, 'invalid_scope', `scope: unknown scope(s): ${unknown.join(', ')}`, clientState),
    );
  }
  if (method !== PKCE_METHOD) {
    throw new HttpAnswer(
      redirectError(redirectUri, 'invalid_request', `code_challenge_method: must be ${PKCE_METHOD}`, clientState),
    );
  }
  if (!isS256Challenge(codeChallenge)) {
    throw new HttpAnswer(
      redirectError(
        redirectUri,
        'invalid_request',
        'code_challenge: must be base64url(SHA-256(code_verifier)) without padding (43 characters)',
        clientState,
      ),
    );
  }
  return { app, redirectUri, state: clientState, scopes, codeChallenge };
}

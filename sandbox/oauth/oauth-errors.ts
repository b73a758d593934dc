/**
 * id.kick.com error shapes ([reference §2.1](../../docs/kick-wire-reference.md#21-authorize), [§2.2](../../docs/kick-wire-reference.md#22-token), [§6](../../docs/kick-wire-reference.md#6-errors-and-rate-limits)). Kick documents a single body for every OAuth error,
 * `400 {"error":"Invalid request"}`; clients also read `error_description`, so the sandbox always adds one
 * that names the parameter and the reason. Errors that can be sent back to the client's redirect URI
 * (bad scope, bad PKCE method, user denial) use the standard RFC 6749 §4.1.2.1 codes instead.
 */
import { HttpAnswer, type SandboxResponse } from '../http/types';
import { appendQueryParams } from './redirect';

/** The only error text Kick documents for id.kick.com. */
export const OAUTH_ERROR_TEXT = 'Invalid request';

/** RFC 6749 §4.1.2.1 codes the sandbox sends to the redirect URI. */
export type RedirectErrorCode = 'invalid_request' | 'invalid_scope' | 'access_denied';

/** Token responses and errors must never be cached (RFC 6749 §5.1). */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** `{"error":"Invalid request","error_description":…}` with the given status (400 unless stated). */
export function oauthError(description: string, status = 400): SandboxResponse {
  return {
    status,
    headers: { ...NO_STORE_HEADERS },
    body: { error: OAUTH_ERROR_TEXT, error_description: description },
  };
}

/** Ends the current request with an id.kick.com error. */
export function oauthFail(description: string, status = 400): never {
  throw new HttpAnswer(oauthError(description, status));
}

/** A 302 to a URI that is known to be registered for the app. */
export function redirectTo(location: string): SandboxResponse {
  return { status: 302, headers: { location, 'cache-control': 'no-store' } };
}

/**
 * Sends an authorization error back to the client's (already validated) redirect URI, echoing `state`
 * as RFC 6749 §4.1.2.1 requires.
 */
export function redirectError(
  redirectUri: string,
  error: RedirectErrorCode,
  description: string,
  state: string,
): SandboxResponse {
  return redirectTo(appendQueryParams(redirectUri, { error, error_description: description, state }));
}

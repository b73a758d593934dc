/**
 * Client authentication at the token endpoint. Kick takes `client_id` and `client_secret` as form fields
 * and requires the secret even with PKCE ([reference §2.2](../../docs/kick-wire-reference.md#22-token)). HTTP Basic is not documented for Kick, so the
 * sandbox does not accept it: a client that only sends Basic would pass here and fail on the real server.
 */
import { timingSafeEqual } from 'node:crypto';
import type { SandboxApp, SandboxState } from '../state';
import { requiredParam } from './form';
import { oauthFail } from './oauth-errors';

/** The app whose credentials the form carries, or a 400 naming the parameter at fault. */
export function authenticateClient(state: SandboxState, form: URLSearchParams): SandboxApp {
  const clientId = requiredParam(form, 'client_id');
  const clientSecret = requiredParam(form, 'client_secret');
  const app = state.appByClientId(clientId);
  if (!app) {
    oauthFail('client_id: no app is registered with this client id');
  }
  if (!secretsEqual(app.clientSecret, clientSecret)) {
    oauthFail('client_secret: does not match the client_id');
  }
  return app;
}

/** Constant-time comparison, so response timing does not leak how much of a guessed secret was right. */
function secretsEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

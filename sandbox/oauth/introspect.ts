/**
 * Token introspection ([reference §2.3](../../docs/kick-wire-reference.md#23-token-introspection)): `POST /oauth/token/introspect` on id.kick.com and the deprecated
 * `POST /public/v1/token/introspect` on api.kick.com. The token to inspect is the bearer token itself; no
 * body is read. The answer uses the API envelope on both hosts. An inactive token reports nothing but
 * `active: false` (the spec says no other information is added).
 */
import { apiError, ok } from '../api/respond';
import type { SandboxContext } from '../context';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxState } from '../state';
import { bearerToken, findLiveAccessToken } from '../tokens';
import { oauthError } from './oauth-errors';

/** The current introspection path on id.kick.com (added 2026-01-15). */
export const INTROSPECT_PATH = '/oauth/token/introspect';
/** The deprecated introspection path on api.kick.com (deprecated 2026-01-15). */
export const LEGACY_INTROSPECT_PATH = '/public/v1/token/introspect';

/** The `data` object for a token: its details while live, `{active:false}` when unknown, expired or revoked. */
export function introspectionData(state: SandboxState, token: string): Record<string, unknown> {
  const record = findLiveAccessToken(state, token);
  if (!record) {
    return { active: false };
  }
  return {
    active: true,
    client_id: record.clientId,
    token_type: record.kind,
    // App tokens carry no scopes; Kick reports the empty string rather than omitting the field.
    scope: record.scopes.join(' '),
    exp: Math.floor(record.expiresAtMs / 1000),
  };
}

/** id.kick.com: a missing bearer token is a 401 in the OAuth error shape. */
export function handleIntrospect(ctx: SandboxContext, req: SandboxRequest): SandboxResponse {
  const token = bearerToken(req.headers.authorization);
  if (!token) {
    return oauthError('Authorization: a Bearer token is required', 401);
  }
  return { ...ok(introspectionData(ctx.state, token)), changesNothing: true };
}

/** api.kick.com (deprecated path): a missing bearer token is the API's 401 envelope. */
export function handleLegacyIntrospect(ctx: SandboxContext, req: SandboxRequest): SandboxResponse {
  const token = bearerToken(req.headers.authorization);
  if (!token) {
    return apiError(401);
  }
  return { ...ok(introspectionData(ctx.state, token)), changesNothing: true };
}

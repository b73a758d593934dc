/**
 * `POST /oauth/revoke` ([reference §2.4](../../docs/kick-wire-reference.md#24-revoke)). Kick's docs put `token` and `token_hint_type` (its own name, not
 * RFC 7009's `token_type_hint`) in the query string, while gokick and KickLib send them in the form body,
 * so both are read. Revoking an unknown token still answers 200 `OK`, as RFC 7009 §2.2 asks.
 */
import type { SandboxContext } from '../context';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import { hasFormContentType, singleParam } from './form';
import { type GrantLedger, revokeAccessToken, revokeRefreshToken } from './grant-ledger';
import { oauthFail } from './oauth-errors';

/** Kick's revocation path on id.kick.com. */
export const REVOKE_PATH = '/oauth/revoke';

const HINTS = ['access_token', 'refresh_token'] as const;
type TokenHint = (typeof HINTS)[number];

/** Revokes the named access or refresh token (and a refresh token's access tokens); always `OK` once `token` is present. */
export function handleRevokeRequest(ctx: SandboxContext, ledger: GrantLedger, req: SandboxRequest): SandboxResponse {
  const body = hasFormContentType(req) ? new URLSearchParams(req.rawBody.toString('utf8')) : new URLSearchParams();
  // The documented place (the query) wins when a client sends the field both ways.
  const param = (name: string): string | undefined => singleParam(req.query, name) ?? singleParam(body, name);

  const token = param('token');
  if (token === undefined) {
    oauthFail('token: is required');
  }
  const hint = param('token_hint_type');
  if (hint !== undefined && !isHint(hint)) {
    oauthFail(`token_hint_type: must be ${HINTS.join(' or ')}`);
  }

  // The hint only orders the search (RFC 7009 §2.1): a wrong hint must not stop the revocation.
  const state = ctx.state;
  const known = state.accessTokens.has(token) || state.refreshTokens.has(token);
  if (hint === 'refresh_token') {
    if (!revokeRefreshToken(state, ledger, token)) {
      revokeAccessToken(state, token);
    }
  } else if (!revokeAccessToken(state, token)) {
    revokeRefreshToken(state, ledger, token);
  }
  // Anyone may call this without credentials; revoking a token nobody holds must not rewrite the saved world.
  return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'OK', changesNothing: !known };
}

function isHint(value: string): value is TokenHint {
  return (HINTS as readonly string[]).includes(value);
}

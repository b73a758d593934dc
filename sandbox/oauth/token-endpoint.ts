/**
 * `POST /oauth/token` ([reference §2.2](../../docs/kick-wire-reference.md#22-token)): the authorization_code (with PKCE), refresh_token and
 * client_credentials grants. Form-urlencoded only; every failure is `400 {"error":"Invalid request"}`
 * with an `error_description` naming the parameter, and answers are plain JSON (not the API envelope).
 */
import type { SandboxContext } from '../context';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxAccessToken, SandboxRefreshToken, SandboxState } from '../state';
import { issueAccessToken, issueRefreshToken } from '../tokens';
import { authenticateClient } from './client-auth';
import { readFormBody, requiredParam } from './form';
import { type GrantLedger, revokeCodeDescendants } from './grant-ledger';
import { NO_STORE_HEADERS, oauthFail } from './oauth-errors';
import { verifierMatches, verifierProblem } from './pkce';

/** Kick's token path on id.kick.com. */
export const TOKEN_PATH = '/oauth/token';

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
type GrantType = (typeof GRANT_TYPES)[number];

function isGrantType(value: string): value is GrantType {
  return (GRANT_TYPES as readonly string[]).includes(value);
}

/** Handles one token request; errors are thrown as HttpAnswer by the helpers. */
export function handleTokenRequest(ctx: SandboxContext, ledger: GrantLedger, req: SandboxRequest): SandboxResponse {
  const form = readFormBody(req);
  const grantType = requiredParam(form, 'grant_type');
  if (!isGrantType(grantType)) {
    oauthFail(`grant_type: must be one of ${GRANT_TYPES.join(', ')}`);
  }
  switch (grantType) {
    case 'authorization_code':
      return exchangeCode(ctx.state, ledger, form);
    case 'refresh_token':
      return refresh(ctx.state, ledger, form);
    case 'client_credentials':
      return clientCredentials(ctx.state, form);
  }
}

function exchangeCode(state: SandboxState, ledger: GrantLedger, form: URLSearchParams): SandboxResponse {
  const app = authenticateClient(state, form);
  const code = requiredParam(form, 'code');
  const redirectUri = requiredParam(form, 'redirect_uri');
  const verifier = requiredParam(form, 'code_verifier');

  const record = state.authCodes.get(code);
  if (!record || record.clientId !== app.clientId) {
    oauthFail('code: unknown authorization code');
  }
  if (record.used) {
    // OAuth 2.1 §4.1.3: a replayed code may mean it was stolen, so everything it produced is revoked.
    revokeCodeDescendants(state, ledger, code);
    oauthFail('code: has already been used; the tokens issued from it are now revoked');
  }
  if (record.expiresAtMs <= state.now()) {
    oauthFail('code: has expired');
  }
  if (redirectUri !== record.redirectUri) {
    oauthFail('redirect_uri: must equal the redirect_uri of the authorization request');
  }
  const problem = verifierProblem(verifier);
  if (problem) {
    oauthFail(`code_verifier: ${problem}`);
  }
  if (!verifierMatches(verifier, record.codeChallenge)) {
    oauthFail('code_verifier: does not match the code_challenge');
  }

  record.used = true;
  const access = issueAccessToken(state, {
    kind: 'user',
    clientId: app.clientId,
    userId: record.userId,
    scopes: record.scopes,
  });
  const refreshToken = issueRefreshToken(state, {
    clientId: app.clientId,
    userId: record.userId,
    scopes: record.scopes,
  });
  ledger.recordCodeExchange(code, access.token, refreshToken.token);
  return userTokenResponse(state, access, refreshToken);
}

/**
 * Kick's refresh tokens are "reusable/flexible" since 2025-11-25 ([reference §2.2](../../docs/kick-wire-reference.md#22-token)): a refresh returns a
 * new refresh token, and the one just used keeps working until it is revoked.
 */
function refresh(state: SandboxState, ledger: GrantLedger, form: URLSearchParams): SandboxResponse {
  const app = authenticateClient(state, form);
  const token = requiredParam(form, 'refresh_token');
  const record = state.refreshTokens.get(token);
  if (!record || record.clientId !== app.clientId) {
    oauthFail('refresh_token: unknown refresh token');
  }
  if (record.revoked) {
    oauthFail('refresh_token: has been revoked');
  }
  if (!state.user(record.userId)) {
    oauthFail('refresh_token: its user no longer exists');
  }

  const access = issueAccessToken(state, {
    kind: 'user',
    clientId: app.clientId,
    userId: record.userId,
    scopes: record.scopes,
  });
  const next = issueRefreshToken(state, { clientId: app.clientId, userId: record.userId, scopes: record.scopes });
  ledger.recordRefresh(token, access.token, next.token);
  return userTokenResponse(state, access, next);
}

/** App tokens carry no refresh token and no scope ([reference §2.2](../../docs/kick-wire-reference.md#22-token) table). */
function clientCredentials(state: SandboxState, form: URLSearchParams): SandboxResponse {
  const app = authenticateClient(state, form);
  const access = issueAccessToken(state, { kind: 'app', clientId: app.clientId, userId: null, scopes: [] });
  return {
    status: 200,
    headers: { ...NO_STORE_HEADERS },
    body: { access_token: access.token, token_type: 'Bearer', expires_in: expiresIn(state, access) },
  };
}

function userTokenResponse(
  state: SandboxState,
  access: SandboxAccessToken,
  refreshToken: SandboxRefreshToken,
): SandboxResponse {
  return {
    status: 200,
    headers: { ...NO_STORE_HEADERS },
    body: {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: expiresIn(state, access),
      refresh_token: refreshToken.token,
      scope: access.scopes.join(' '),
    },
  };
}

/** Whole seconds left, as Kick's integer `expires_in`. */
function expiresIn(state: SandboxState, access: SandboxAccessToken): number {
  return Math.max(0, Math.round((access.expiresAtMs - state.now()) / 1000));
}

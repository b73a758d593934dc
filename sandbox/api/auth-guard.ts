/**
 * Token and scope checks for api.kick.com routes ([reference §3.0](../../docs/kick-wire-reference.md#30-summary)): 401 for a missing, unknown, expired or
 * revoked token; 403 when the token is of the wrong kind or lacks every accepted scope.
 */
import type { SandboxRequest } from '../http/types';
import type { SandboxAccessToken, SandboxState } from '../state';
import { bearerToken, findLiveAccessToken } from '../tokens';
import { fail } from './respond';

export interface GuardRule {
  /** `user`: a user token is required. `any`: app or user token. */
  token: 'user' | 'any';
  /**
   * With a user token, at least one of these scopes must be granted. App tokens carry no scopes and are
   * let through wherever `token` is `any`.
   */
  anyScope?: readonly string[];
}

export interface UserTokenContext extends SandboxAccessToken {
  kind: 'user';
  userId: number;
}

export function authenticate(
  state: SandboxState,
  req: SandboxRequest,
  rule: GuardRule & { token: 'user' },
): UserTokenContext;
export function authenticate(state: SandboxState, req: SandboxRequest, rule: GuardRule): SandboxAccessToken;
export function authenticate(state: SandboxState, req: SandboxRequest, rule: GuardRule): SandboxAccessToken {
  const raw = bearerToken(req.headers.authorization);
  if (!raw) {
    fail(401);
  }
  const token = findLiveAccessToken(state, raw);
  if (!token) {
    fail(401);
  }
  if (rule.token === 'user' && token.kind !== 'user') {
    fail(403, 'a user access token is required');
  }
  if (token.kind === 'user' && rule.anyScope && rule.anyScope.length > 0) {
    if (!rule.anyScope.some((s) => token.scopes.includes(s))) {
      fail(403, `missing scope: ${rule.anyScope.join(' or ')}`);
    }
  }
  return token;
}

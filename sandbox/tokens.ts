/** Issuing and looking up the sandbox's opaque tokens. The OAuth routes and test fixtures both use these. */
import { createOpaqueToken } from '../electron/core/ids';
import type { SandboxAccessToken, SandboxRefreshToken, SandboxState } from './state';

export interface IssueAccessTokenInput {
  kind: 'app' | 'user';
  clientId: string;
  userId: number | null;
  scopes: string[];
  /** Overrides the configured lifetime (seconds); tests use it to make a token that is about to expire. */
  lifetimeSeconds?: number;
}

export function issueAccessToken(state: SandboxState, input: IssueAccessTokenInput): SandboxAccessToken {
  const record: SandboxAccessToken = {
    token: createOpaqueToken(),
    kind: input.kind,
    clientId: input.clientId,
    userId: input.kind === 'app' ? null : input.userId,
    scopes: [...input.scopes],
    expiresAtMs: state.now() + (input.lifetimeSeconds ?? state.lifetimes.accessSeconds) * 1000,
    revoked: false,
  };
  state.accessTokens.set(record.token, record);
  return record;
}

export function issueRefreshToken(
  state: SandboxState,
  input: { clientId: string; userId: number; scopes: string[] },
): SandboxRefreshToken {
  const record: SandboxRefreshToken = {
    token: createOpaqueToken(),
    ...input,
    scopes: [...input.scopes],
    revoked: false,
  };
  state.refreshTokens.set(record.token, record);
  return record;
}

/** The access token if it exists, is not revoked and has not expired. */
export function findLiveAccessToken(state: SandboxState, token: string): SandboxAccessToken | undefined {
  const record = state.accessTokens.get(token);
  if (!record || record.revoked || record.expiresAtMs <= state.now()) {
    return undefined;
  }
  return record;
}

/** `Authorization: Bearer <token>` → the token, or undefined when the header is missing or malformed. */
export function bearerToken(authorization: string | string[] | undefined): string | undefined {
  if (typeof authorization !== 'string') {
    return undefined;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}

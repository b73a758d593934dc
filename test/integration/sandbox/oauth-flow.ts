/**
 * Helpers for the OAuth sandbox tests: a PKCE pair computed independently of the sandbox's own code,
 * authorize queries in a chosen parameter order, form posts, and the whole sign-in as one call.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { call, type CallResult } from '../../helpers/sandbox';

export interface PkcePair {
  verifier: string;
  challenge: string;
}

/** A fresh RFC 7636 pair: 32 random bytes as the verifier, base64url(SHA-256) as the challenge. */
export function createPkce(): PkcePair {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export type QueryPairs = [string, string][];

/** The seven documented authorize params, in the usual order, with `overrides` replacing or dropping some. */
export function authorizeParams(
  sandbox: Sandbox,
  pkce: PkcePair,
  overrides: Record<string, string | null> = {},
): QueryPairs {
  const base: QueryPairs = [
    ['client_id', sandbox.ctx.app.clientId],
    ['response_type', 'code'],
    ['redirect_uri', 'http://localhost:3000/callback'],
    ['state', 'state-123'],
    ['scope', 'user:read chat:write'],
    ['code_challenge', pkce.challenge],
    ['code_challenge_method', 'S256'],
  ];
  const pairs: QueryPairs = base.flatMap(([k, v]): QueryPairs => {
    const o = overrides[k];
    if (o === null) {
      return [];
    }
    return [[k, o ?? v]];
  });
  for (const [k, v] of Object.entries(overrides)) {
    if (v !== null && !base.some(([b]) => b === k)) {
      pairs.push([k, v]);
    }
  }
  return pairs;
}

export function authorize(sandbox: Sandbox, query: QueryPairs): Promise<CallResult> {
  return call(sandbox.urls.auth, 'GET', '/oauth/authorize', { query });
}

/** POSTs `application/x-www-form-urlencoded` params to a sandbox URL. */
export function postForm(
  baseUrl: string,
  path: string,
  params: Record<string, string>,
  query: QueryPairs = [],
): Promise<CallResult> {
  return call(baseUrl, 'POST', path, {
    query,
    rawBody: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** The parsed `Location` of a 302, asserting that it is one. */
export function redirectLocation(res: CallResult): URL {
  expect(res.status, res.text).toBe(302);
  const location = res.headers.location;
  expect(typeof location).toBe('string');
  return new URL(location as string);
}

/** The code of a successful authorize redirect, checking that `state` came back. */
export function codeFrom(res: CallResult, state = 'state-123'): string {
  const location = redirectLocation(res);
  expect(location.searchParams.get('state')).toBe(state);
  const code = location.searchParams.get('code');
  expect(code).toBeTruthy();
  return code!;
}

export function exchangeCode(
  sandbox: Sandbox,
  code: string,
  verifier: string,
  overrides: Record<string, string | null> = {},
): Promise<CallResult> {
  const params: Record<string, string> = {
    grant_type: 'authorization_code',
    code,
    client_id: sandbox.ctx.app.clientId,
    client_secret: sandbox.ctx.app.clientSecret,
    redirect_uri: 'http://localhost:3000/callback',
    code_verifier: verifier,
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) {
      delete params[k];
    } else {
      params[k] = v;
    }
  }
  return postForm(sandbox.urls.auth, '/oauth/token', params);
}

/** The token fields of a token-endpoint answer, typed (absent fields read as undefined). */
export interface TokenJson {
  access_token: string;
  refresh_token: string;
}

export function tokenOf(res: CallResult): TokenJson {
  return res.json as TokenJson;
}

export interface UserTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
  code: string;
}

/** The whole auto-approved authorization-code + PKCE sign-in, returning the token response. */
export async function signIn(sandbox: Sandbox, scope = 'user:read chat:write'): Promise<UserTokens> {
  const pkce = createPkce();
  const code = codeFrom(await authorize(sandbox, authorizeParams(sandbox, pkce, { scope })));
  const res = await exchangeCode(sandbox, code, pkce.verifier);
  expect(res.status, res.text).toBe(200);
  return { ...(res.json as Omit<UserTokens, 'code'>), code };
}

export function introspect(sandbox: Sandbox, token: string | undefined, legacy = false): Promise<CallResult> {
  return legacy
    ? call(sandbox.urls.api, 'POST', '/public/v1/token/introspect', { token })
    : call(sandbox.urls.auth, 'POST', '/oauth/token/introspect', { token });
}

/** Asserts the id.kick.com 400 shape with a description containing `fragment`. */
export function expectOAuthError(res: CallResult, fragment: string, status = 400): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toEqual({ error: 'Invalid request', error_description: expect.stringContaining(fragment) });
  expect(res.headers.location).toBeUndefined();
}

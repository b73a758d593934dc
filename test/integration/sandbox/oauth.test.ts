/**
 * id.kick.com in the sandbox, part 1: authorize (validation, consent page, auto-approve) and the
 * authorization-code + PKCE exchange, all over real HTTP ([reference §2.1](../../../docs/kick-wire-reference.md#21-authorize), [§2.2](../../../docs/kick-wire-reference.md#22-token)).
 *
 * This file: “authorize with auto-approve and the code exchange”; “code expiry”.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, startSandbox } from '../../helpers/sandbox';
import {
  authorize,
  authorizeParams,
  codeFrom,
  createPkce,
  exchangeCode,
  expectOAuthError,
  introspect,
  postForm,
  redirectLocation,
  tokenOf,
} from './oauth-flow';
import { keys } from './oauth-fixtures';

describe('authorize with auto-approve and the code exchange', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ keys });
  });
  afterAll(() => sandbox.close());

  it('runs the full PKCE flow and the token is live on both introspection paths', async () => {
    const pkce = createPkce();
    const res = await authorize(
      sandbox,
      authorizeParams(sandbox, pkce, { scope: 'user:read chat:write events:subscribe' }),
    );
    const location = redirectLocation(res);
    expect(`${location.origin}${location.pathname}`).toBe('http://localhost:3000/callback');
    expect([...location.searchParams.keys()].sort()).toEqual(['code', 'state']);
    const code = codeFrom(res);

    const token = await exchangeCode(sandbox, code, pkce.verifier);
    expect(token.status, token.text).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: 'user:read chat:write events:subscribe',
    });
    const record = sandbox.ctx.state.accessTokens.get(tokenOf(token).access_token)!;
    expect(record.userId).toBe(STREAMER_USER_ID);

    const expected = {
      data: {
        active: true,
        client_id: sandbox.ctx.app.clientId,
        token_type: 'user',
        scope: 'user:read chat:write events:subscribe',
        exp: Math.floor(record.expiresAtMs / 1000),
      },
      message: 'OK',
    };
    const current = await introspect(sandbox, tokenOf(token).access_token);
    expect(current.status).toBe(200);
    expect(current.json).toEqual(expected);
    const legacy = await introspect(sandbox, tokenOf(token).access_token, true);
    expect(legacy.status).toBe(200);
    expect(legacy.json).toEqual(expected);
  });

  it('accepts scopes separated by + or %20 in the raw query', async () => {
    for (const sep of ['+', '%20']) {
      const pkce = createPkce();
      const raw = authorizeParams(sandbox, pkce, { scope: null })
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('&');
      const res = await call(sandbox.urls.auth, 'GET', `/oauth/authorize?${raw}&scope=user:read${sep}kicks:read`);
      const token = await exchangeCode(sandbox, codeFrom(res), pkce.verifier);
      expect(token.json.scope).toBe('user:read kicks:read');
    }
  });

  it('answers 400 JSON and never redirects for a bad client, redirect URI, response type or missing param', async () => {
    const pkce = createPkce();
    const cases: [Record<string, string | null>, string][] = [
      [{ client_id: 'nope' }, 'client_id:'],
      [{ client_id: null }, 'client_id: is required'],
      [{ redirect_uri: 'http://evil.example/callback' }, 'redirect_uri: http://evil.example/callback does not exactly'],
      [{ redirect_uri: 'http://localhost:3000/callback/' }, 'redirect_uri:'],
      [{ redirect_uri: null }, 'redirect_uri: is required'],
      [{ response_type: 'token' }, 'response_type: must be code'],
      [{ response_type: null }, 'response_type: is required'],
      [{ state: null }, 'state: is required'],
      [{ scope: null }, 'scope: is required'],
      [{ code_challenge: null }, 'code_challenge: is required'],
      [{ code_challenge_method: null }, 'code_challenge_method: is required'],
    ];
    for (const [overrides, fragment] of cases) {
      expectOAuthError(await authorize(sandbox, authorizeParams(sandbox, pkce, overrides)), fragment);
    }
    const twice = [...authorizeParams(sandbox, pkce), ['redirect_uri', 'http://evil.example/cb']] as [string, string][];
    expectOAuthError(await authorize(sandbox, twice), 'redirect_uri: must not be sent more than once');
  });

  it('sends scope and PKCE-method errors back to the registered redirect URI with state', async () => {
    const pkce = createPkce();
    const cases: [Record<string, string>, string, string][] = [
      [{ scope: 'user:read chat:read bogus' }, 'invalid_scope', 'chat:read, bogus'],
      [{ code_challenge_method: 'plain' }, 'invalid_request', 'code_challenge_method: must be S256'],
      [{ code_challenge: 'too-short' }, 'invalid_request', 'code_challenge:'],
    ];
    for (const [overrides, error, fragment] of cases) {
      const location = redirectLocation(await authorize(sandbox, authorizeParams(sandbox, pkce, overrides)));
      expect(location.href.startsWith('http://localhost:3000/callback?')).toBe(true);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('error_description')).toContain(fragment);
      expect(location.searchParams.get('state')).toBe('state-123');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('refuses a wrong or malformed code_verifier without burning the code', async () => {
    const pkce = createPkce();
    const code = codeFrom(await authorize(sandbox, authorizeParams(sandbox, pkce)));
    expectOAuthError(await exchangeCode(sandbox, code, createPkce().verifier), 'code_verifier: does not match');
    expectOAuthError(await exchangeCode(sandbox, code, 'short'), 'code_verifier: must be at least 43 characters');
    expectOAuthError(await exchangeCode(sandbox, code, `${'a'.repeat(42)}!`), 'code_verifier: must use only');
    expectOAuthError(
      await exchangeCode(sandbox, code, pkce.verifier, { code_verifier: null }),
      'code_verifier: is required',
    );
    expect((await exchangeCode(sandbox, code, pkce.verifier)).status).toBe(200);
  });

  it('refuses a reused code and revokes the tokens it produced', async () => {
    const pkce = createPkce();
    const code = codeFrom(await authorize(sandbox, authorizeParams(sandbox, pkce)));
    const first = await exchangeCode(sandbox, code, pkce.verifier);
    expect(first.status).toBe(200);
    expect((await introspect(sandbox, tokenOf(first).access_token)).json.data.active).toBe(true);

    expectOAuthError(await exchangeCode(sandbox, code, pkce.verifier), 'code: has already been used');
    expect((await introspect(sandbox, tokenOf(first).access_token)).json).toEqual({
      data: { active: false },
      message: 'OK',
    });
    const refresh = await postForm(sandbox.urls.auth, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokenOf(first).refresh_token,
      client_id: sandbox.ctx.app.clientId,
      client_secret: sandbox.ctx.app.clientSecret,
    });
    expectOAuthError(refresh, 'refresh_token: has been revoked');
  });

  it('requires the same redirect_uri and valid client credentials at the token endpoint', async () => {
    const pkce = createPkce();
    const code = codeFrom(await authorize(sandbox, authorizeParams(sandbox, pkce)));
    const other = { redirect_uri: 'http://127.0.0.1:3000/callback' };
    expectOAuthError(await exchangeCode(sandbox, code, pkce.verifier, other), 'redirect_uri: must equal');
    expectOAuthError(
      await exchangeCode(sandbox, code, pkce.verifier, { redirect_uri: null }),
      'redirect_uri: is required',
    );
    expectOAuthError(
      await exchangeCode(sandbox, code, pkce.verifier, { client_secret: null }),
      'client_secret: is required',
    );
    expectOAuthError(
      await exchangeCode(sandbox, code, pkce.verifier, { client_secret: 'wrong' }),
      'client_secret: does not match',
    );
    expectOAuthError(await exchangeCode(sandbox, code, pkce.verifier, { client_id: 'nope' }), 'client_id:');
    expectOAuthError(await exchangeCode(sandbox, 'no-such-code', pkce.verifier), 'code: unknown');
    // HTTP Basic is not a documented way to send the secret to Kick, so it does not replace the form field.
    const basic = Buffer.from(`${sandbox.ctx.app.clientId}:${sandbox.ctx.app.clientSecret}`).toString('base64');
    const viaBasic = await call(sandbox.urls.auth, 'POST', '/oauth/token', {
      rawBody: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: sandbox.ctx.app.clientId,
        redirect_uri: 'http://localhost:3000/callback',
        code_verifier: pkce.verifier,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
    expectOAuthError(viaBasic, 'client_secret: is required');
    expect((await exchangeCode(sandbox, code, pkce.verifier)).status).toBe(200);
  });

  it('keeps the registered redirect URI query when adding code and state', async () => {
    const uri = 'http://localhost:4000/cb?app=green%20room';
    const local = await startSandbox({ keys, redirectUris: [uri] });
    try {
      const res = await authorize(local, authorizeParams(local, createPkce(), { redirect_uri: uri }));
      expect(res.headers.location).toMatch(
        /^http:\/\/localhost:4000\/cb\?app=green%20room&code=[^&]+&state=state-123$/,
      );
    } finally {
      await local.close();
    }
  });
});

describe('code expiry', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  it('refuses a code once state.lifetimes.codeSeconds have passed', async () => {
    sandbox = await startSandbox({ keys, tokenLifetimes: { codeSeconds: 60 } });
    const pkce = createPkce();
    const code = codeFrom(await authorize(sandbox, authorizeParams(sandbox, pkce)));
    sandbox.ctx.clock.advance(60_000);
    expectOAuthError(await exchangeCode(sandbox, code, pkce.verifier), 'code: has expired');
  });

  it('still accepts a code just before it expires', async () => {
    sandbox = await startSandbox({ keys, tokenLifetimes: { codeSeconds: 60 } });
    const pkce = createPkce();
    const code = codeFrom(await authorize(sandbox, authorizeParams(sandbox, pkce)));
    sandbox.ctx.clock.advance(59_000);
    expect((await exchangeCode(sandbox, code, pkce.verifier)).status).toBe(200);
  });
});

/**
 * id.kick.com in the sandbox, part 2: refresh and client_credentials grants, revocation, introspection on
 * both hosts, token expiry and malformed requests, over real HTTP ([reference §2.2](../../../docs/kick-wire-reference.md#22-token), [§2.3](../../../docs/kick-wire-reference.md#23-token-introspection), [§2.4](../../../docs/kick-wire-reference.md#24-revoke)).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import { authenticate } from '../../../sandbox/api/auth-guard';
import { HttpAnswer, type SandboxRequest } from '../../../sandbox/http/types';
import { call, startSandbox } from '../../helpers/sandbox';
import { expectOAuthError, introspect, postForm, signIn, tokenOf } from './oauth-flow';

const keys = createSigningKeys();
const INACTIVE = { data: { active: false }, message: 'OK' };

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ keys });
});
afterEach(() => sandbox.close());

const credentials = () => ({ client_id: sandbox.ctx.app.clientId, client_secret: sandbox.ctx.app.clientSecret });
const token = (params: Record<string, string>) => postForm(sandbox.urls.auth, '/oauth/token', params);
const refreshWith = (refreshToken: string, extra: Record<string, string> = {}) =>
  token({ grant_type: 'refresh_token', refresh_token: refreshToken, ...credentials(), ...extra });
/** What the API's auth guard answers for this bearer token: 'ok' or the status it throws. */
function guardStatus(accessToken: string): number | 'ok' {
  const req: SandboxRequest = {
    method: 'GET',
    path: '/public/v1/users',
    query: new URLSearchParams(),
    rawQuery: '',
    headers: { authorization: `Bearer ${accessToken}` },
    rawBody: Buffer.alloc(0),
    params: {},
  };
  try {
    authenticate(sandbox.ctx.state, req, { token: 'any' });
    return 'ok';
  } catch (error) {
    if (error instanceof HttpAnswer) {
      return error.response.status;
    }
    throw error;
  }
}
const isActive = async (accessToken: string) => (await introspect(sandbox, accessToken)).json.data.active as boolean;

describe('refresh_token grant', () => {
  it('returns a new pair and leaves the old refresh token reusable', async () => {
    const first = await signIn(sandbox, 'user:read channel:write');
    const second = await refreshWith(first.refresh_token);
    expect(second.status, second.text).toBe(200);
    expect(second.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.any(String),
      scope: 'user:read channel:write',
    });
    expect(tokenOf(second).refresh_token).not.toBe(first.refresh_token);
    expect(tokenOf(second).access_token).not.toBe(first.access_token);

    const third = await refreshWith(first.refresh_token);
    expect(third.status).toBe(200);
    expect((await refreshWith(tokenOf(second).refresh_token)).status).toBe(200);
    expect(await isActive(first.access_token)).toBe(true);
    expect(await isActive(tokenOf(second).access_token)).toBe(true);
    expect(await isActive(tokenOf(third).access_token)).toBe(true);
  });

  it('fails for a revoked, unknown or other-client refresh token and without the secret', async () => {
    const first = await signIn(sandbox);
    const second = await refreshWith(first.refresh_token);
    const revoke = await postForm(sandbox.urls.auth, '/oauth/revoke', {}, [['token', first.refresh_token]]);
    expect(revoke.status).toBe(200);
    expectOAuthError(await refreshWith(first.refresh_token), 'refresh_token: has been revoked');
    // The refresh token issued later is its own token and keeps working.
    expect((await refreshWith(tokenOf(second).refresh_token)).status).toBe(200);

    expectOAuthError(await refreshWith('not-a-token'), 'refresh_token: unknown');
    expectOAuthError(
      await token({
        grant_type: 'refresh_token',
        refresh_token: tokenOf(second).refresh_token,
        client_id: sandbox.ctx.app.clientId,
      }),
      'client_secret: is required',
    );
    expectOAuthError(
      await refreshWith(tokenOf(second).refresh_token, { client_secret: 'wrong' }),
      'client_secret: does not match',
    );
    sandbox.ctx.state.apps.set('other-client', {
      ...sandbox.ctx.app,
      clientId: 'other-client',
      clientSecret: 'other-secret',
    });
    expectOAuthError(
      await refreshWith(tokenOf(second).refresh_token, { client_id: 'other-client', client_secret: 'other-secret' }),
      'refresh_token: unknown',
    );
  });

  it('still refreshes after the access token expired, which then reads inactive', async () => {
    const first = await signIn(sandbox);
    expect(guardStatus(first.access_token)).toBe('ok');
    sandbox.ctx.clock.advance(3600 * 1000);
    expect(guardStatus(first.access_token)).toBe(401);
    expect(await introspect(sandbox, first.access_token)).toMatchObject({ status: 200, json: INACTIVE });
    expect(await introspect(sandbox, first.access_token, true)).toMatchObject({ status: 200, json: INACTIVE });
    const next = await refreshWith(first.refresh_token);
    expect(next.status).toBe(200);
    expect(await isActive(tokenOf(next).access_token)).toBe(true);
  });
});

describe('client_credentials grant', () => {
  it('issues an app token without refresh token or scope', async () => {
    const res = await token({ grant_type: 'client_credentials', ...credentials() });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const record = sandbox.ctx.state.accessTokens.get(tokenOf(res).access_token)!;
    const expected = {
      data: {
        active: true,
        client_id: sandbox.ctx.app.clientId,
        token_type: 'app',
        scope: '',
        exp: Math.floor(record.expiresAtMs / 1000),
      },
      message: 'OK',
    };
    expect((await introspect(sandbox, tokenOf(res).access_token)).json).toEqual(expected);
    expect((await introspect(sandbox, tokenOf(res).access_token, true)).json).toEqual(expected);
  });

  it('needs the right secret', async () => {
    expectOAuthError(
      await token({ grant_type: 'client_credentials', client_id: sandbox.ctx.app.clientId }),
      'client_secret:',
    );
    expectOAuthError(
      await token({ grant_type: 'client_credentials', ...credentials(), client_secret: 'x' }),
      'client_secret:',
    );
  });

  it('expires after accessSeconds', async () => {
    const res = await token({ grant_type: 'client_credentials', ...credentials() });
    sandbox.ctx.clock.advance(3599 * 1000);
    expect(await isActive(tokenOf(res).access_token)).toBe(true);
    sandbox.ctx.clock.advance(1000);
    expect((await introspect(sandbox, tokenOf(res).access_token)).json).toEqual(INACTIVE);
  });
});

describe('revoke', () => {
  const revoke = (params: Record<string, string>, query: [string, string][] = []) =>
    postForm(sandbox.urls.auth, '/oauth/revoke', params, query);

  it('revokes an access token sent in the query string, answering text OK', async () => {
    const tokens = await signIn(sandbox);
    const res = await revoke({}, [
      ['token', tokens.access_token],
      ['token_hint_type', 'access_token'],
    ]);
    expect(res.status).toBe(200);
    expect(res.text).toBe('OK');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await introspect(sandbox, tokens.access_token)).json).toEqual(INACTIVE);
    expect(sandbox.ctx.state.accessTokens.get(tokens.access_token)?.revoked).toBe(true);
    // The API's auth guard now refuses it.
    expect(guardStatus(tokens.access_token)).toBe(401);
    // The refresh token was not named, so it still works.
    expect((await refreshWith(tokens.refresh_token)).status).toBe(200);
  });

  it('revokes a refresh token sent in the form body, with the access tokens issued with and from it', async () => {
    const tokens = await signIn(sandbox);
    const refreshed = await refreshWith(tokens.refresh_token);
    const other = await signIn(sandbox);
    const res = await revoke({ token: tokens.refresh_token, token_hint_type: 'refresh_token' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('OK');
    expect(await isActive(tokens.access_token)).toBe(false);
    expect(await isActive(tokenOf(refreshed).access_token)).toBe(false);
    expectOAuthError(await refreshWith(tokens.refresh_token), 'refresh_token: has been revoked');
    expect(await isActive(other.access_token)).toBe(true);
  });

  it('finds the token even when the hint is wrong or absent', async () => {
    const a = await signIn(sandbox);
    expect((await revoke({ token: a.access_token, token_hint_type: 'refresh_token' })).status).toBe(200);
    expect(await isActive(a.access_token)).toBe(false);
    const b = await signIn(sandbox);
    expect((await revoke({ token: b.refresh_token })).status).toBe(200);
    expect(await isActive(b.access_token)).toBe(false);
  });

  it('answers 200 for an unknown token and 400 for a missing token or bad hint', async () => {
    const unknown = await revoke({ token: 'never-issued' });
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe('OK');
    expectOAuthError(await revoke({}), 'token: is required');
    expectOAuthError(await call(sandbox.urls.auth, 'POST', '/oauth/revoke'), 'token: is required');
    expectOAuthError(await revoke({ token: 'x', token_hint_type: 'id_token' }), 'token_hint_type:');
  });
});

describe('introspection', () => {
  it('answers 401 without a bearer token, in each host’s error shape', async () => {
    const auth = await introspect(sandbox, undefined);
    expect(auth.status).toBe(401);
    expect(auth.json).toEqual({ error: 'Invalid request', error_description: expect.stringContaining('Bearer') });
    const api = await introspect(sandbox, undefined, true);
    expect(api.status).toBe(401);
    expect(api.json).toEqual({ data: {}, message: 'Unauthorized' });
    const basic = await call(sandbox.urls.auth, 'POST', '/oauth/token/introspect', {
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.status).toBe(401);
  });

  it('reports an unknown token as inactive on both paths', async () => {
    expect((await introspect(sandbox, 'never-issued')).json).toEqual(INACTIVE);
    expect((await introspect(sandbox, 'never-issued', true)).json).toEqual(INACTIVE);
  });
});

describe('malformed requests', () => {
  it('refuses non-form and garbage bodies and keeps serving', async () => {
    const json = await call(sandbox.urls.auth, 'POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', ...credentials() },
    });
    expectOAuthError(json, 'Content-Type must be application/x-www-form-urlencoded');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const garbage = await call(sandbox.urls.auth, 'POST', '/oauth/token', {
      rawBody: Buffer.from([0x25, 0x25, 0xff, 0xfe, 0x3d, 0x26, 0x3d, 0x25, 0x7a]),
      headers: form,
    });
    expectOAuthError(garbage, 'grant_type: is required');
    expectOAuthError(await token({ grant_type: 'password', ...credentials() }), 'grant_type: must be one of');
    const twice = await call(sandbox.urls.auth, 'POST', '/oauth/token', {
      rawBody: 'grant_type=client_credentials&grant_type=client_credentials',
      headers: form,
    });
    expectOAuthError(twice, 'grant_type: must not be sent more than once');
    const get = await call(sandbox.urls.auth, 'GET', '/oauth/token');
    expect(get.status).toBe(405);
    expect(get.json).toEqual({ error: 'Method not allowed' });

    const after = await token({ grant_type: 'client_credentials', ...credentials() });
    expect(after.status).toBe(200);
  });
});

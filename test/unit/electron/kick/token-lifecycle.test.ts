import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_KEYS } from '../../../../electron/secrets/secret-store';
import { createMockKick, json, signInMock, type MockKick } from '../../../helpers/kick-mock';

const tokenReply = (access: string, refresh: string) => ({
  access_token: access,
  token_type: 'Bearer',
  expires_in: 3600,
  refresh_token: refresh,
  scope: 'user:read chat:write',
});

describe('user and app tokens', () => {
  let mock: MockKick;
  beforeEach(() => {
    mock = createMockKick();
  });
  afterEach(async () => {
    mock.agent.assertNoPendingInterceptors();
    await mock.agent.close();
  });

  it('refreshes once for fifty concurrent calls made with an expired token', async () => {
    await signInMock(mock, ['user:read', 'chat:write'], 3600);
    mock.clock.advance(3600_000);
    let refreshes = 0;
    mock.auth
      .intercept({
        path: '/oauth/token',
        method: 'POST',
        body: (b) => b.includes('grant_type=refresh_token') && b.includes('refresh_token=refresh-1'),
      })
      .reply(() => {
        refreshes++;
        return { statusCode: 200, data: tokenReply('user-token-2', 'refresh-2'), responseOptions: json };
      });
    mock.api
      .intercept({ path: '/public/v1/users', method: 'GET', headers: { authorization: 'Bearer user-token-2' } })
      .reply(200, { data: [{ user_id: 1, name: 'a', email: '', profile_picture: '' }], message: 'OK' }, json)
      .times(50);
    const results = await Promise.all(Array.from({ length: 50 }, () => mock.kick.client.fetchCurrentUser()));
    expect(refreshes).toBe(1);
    expect(results.every((u) => u?.user_id === 1)).toBe(true);
    expect(JSON.parse((await mock.store.get(SECRET_KEYS.userToken))!)).toMatchObject({
      accessToken: 'user-token-2',
      refreshToken: 'refresh-2',
    });
  });

  it('refreshes once after a 401 and retries the call with the new token', async () => {
    await signInMock(mock);
    mock.api
      .intercept({ path: '/public/v1/users', method: 'GET', headers: { authorization: 'Bearer user-token-1' } })
      .reply(401, { data: {}, message: 'Unauthorized' }, json);
    mock.auth
      .intercept({ path: '/oauth/token', method: 'POST' })
      .reply(200, tokenReply('user-token-2', 'refresh-2'), json);
    mock.api
      .intercept({ path: '/public/v1/users', method: 'GET', headers: { authorization: 'Bearer user-token-2' } })
      .reply(200, { data: [], message: 'OK' }, json);
    await expect(mock.kick.client.fetchCurrentUser()).resolves.toBeNull();
  });

  it('signs out with the reason when Kick rejects the refresh token, and does not loop', async () => {
    await signInMock(mock);
    const changes: string[] = [];
    mock.kick.session.onChange((s) => changes.push(s.status));
    mock.api
      .intercept({ path: '/public/v1/users', method: 'GET' })
      .reply(401, { data: {}, message: 'Unauthorized' }, json);
    mock.auth.intercept({ path: '/oauth/token', method: 'POST' }).reply(400, { error: 'Invalid request' }, json);
    await expect(mock.kick.client.fetchCurrentUser()).rejects.toMatchObject({ code: 'RefreshRejected' });
    expect(mock.kick.session.state()).toEqual({
      status: 'signed-out',
      reason: 'sign in again: refresh token rejected',
    });
    expect(await mock.store.get(SECRET_KEYS.userToken)).toBeNull();
    expect(changes).toEqual(['signed-out']);
    await expect(mock.kick.client.fetchCurrentUser()).rejects.toMatchObject({
      code: 'NotSignedIn',
      message: /refresh token rejected/,
    });
  });

  it('fails fast with MissingScope naming the scope, sending nothing', async () => {
    await signInMock(mock, ['user:read']);
    await expect(mock.kick.client.sendChatMessage({ content: 'hi' })).rejects.toMatchObject({
      code: 'MissingScope',
      details: { scopes: ['chat:write'] },
    });
  });

  it('uses the app token for public reads when the user lacks the scope, fetched once for concurrent callers', async () => {
    let fetched = 0;
    mock.auth
      .intercept({
        path: '/oauth/token',
        method: 'POST',
        body: (b) => b.includes('grant_type=client_credentials') && b.includes('client_secret=secret-1'),
      })
      .reply(() => {
        fetched++;
        return {
          statusCode: 200,
          data: { access_token: 'app-1', token_type: 'Bearer', expires_in: 3600 },
          responseOptions: json,
        };
      });
    mock.api
      .intercept({ path: '/public/v1/livestreams/stats', method: 'GET', headers: { authorization: 'Bearer app-1' } })
      .reply(200, { data: { total_count: 3 }, message: 'OK' }, json)
      .times(5);
    await Promise.all(Array.from({ length: 5 }, () => mock.kick.client.fetchLivestreamStats()));
    expect(fetched).toBe(1);
    expect(JSON.parse((await mock.store.get(SECRET_KEYS.appToken))!)).toMatchObject({ accessToken: 'app-1' });
  });

  it('renews the app token a margin before it expires', async () => {
    mock.auth
      .intercept({ path: '/oauth/token', method: 'POST' })
      .reply(200, { access_token: 'app-1', token_type: 'Bearer', expires_in: 3600 }, json);
    mock.auth
      .intercept({ path: '/oauth/token', method: 'POST' })
      .reply(200, { access_token: 'app-2', token_type: 'Bearer', expires_in: 3600 }, json);
    expect(await mock.kick.appToken.get()).toBe('app-1');
    mock.clock.advance(3600_000 - 61_000);
    expect(await mock.kick.appToken.get()).toBe('app-1');
    mock.clock.advance(2_000);
    expect(await mock.kick.appToken.get()).toBe('app-2');
  });

  it('validates set_user_token: all four fields required', async () => {
    await expect(
      mock.kick.session.setUserToken({ access_token: 'a', refresh_token: 'r', expires_in: 0, scope: '' }),
    ).rejects.toMatchObject({ code: 'Validation', field: 'expires_in' });
    await expect(
      mock.kick.session.setUserToken({ access_token: 'a', refresh_token: undefined, expires_in: 60, scope: '' }),
    ).rejects.toMatchObject({ field: 'refresh_token' });
    await expect(
      mock.kick.session.setUserToken({ access_token: 'a', refresh_token: 'r', expires_in: 60, scope: undefined }),
    ).rejects.toMatchObject({ field: 'scope' });
    expect(mock.kick.session.state().status).toBe('signed-out');
  });

  it('sign-out revokes both tokens at Kick and wipes them locally', async () => {
    await signInMock(mock);
    const revoked: string[] = [];
    mock.auth
      .intercept({ path: (p) => p.startsWith('/oauth/revoke'), method: 'POST' })
      .reply((opts) => {
        revoked.push(`${opts.body as string} ${opts.path.split('?')[1]}`);
        return { statusCode: 200, data: 'OK' };
      })
      .times(2);
    await expect(mock.kick.signOut()).resolves.toEqual({ revoked: true });
    // Both in the form body and the query string (wire-assumptions: the docs and the libraries disagree).
    expect(revoked.sort()).toEqual([
      'token=refresh-1&token_hint_type=refresh_token token=refresh-1&token_hint_type=refresh_token',
      'token=user-token-1&token_hint_type=access_token token=user-token-1&token_hint_type=access_token',
    ]);
    expect(mock.store.keys()).not.toContain(SECRET_KEYS.userToken);
    expect(mock.kick.session.state()).toEqual({ status: 'signed-out', reason: null });
  });
});

/**
 * Every JSON answer from the sandbox carries exactly `Content-Type: application/json`, as Kick's do
 * (wire [reference §1](../../../docs/kick-wire-reference.md#1-hosts-and-general-conventions)): clients in use parse a body as JSON only on exactly that value. Checked on each of
 * its three servers, for answers, errors and the fallbacks no route produced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { call, type CallResult, mintUserToken, startSandbox } from '../../helpers/sandbox';

let sandbox: Sandbox;
let admin: { authorization: string };

beforeAll(async () => {
  sandbox = await startSandbox();
  admin = { authorization: `Bearer ${sandbox.describe().adminToken}` };
});
afterAll(() => sandbox.close());

function expectExactJson(res: CallResult, what: string): void {
  expect(res.headers['content-type'], what).toBe('application/json');
  expect(res.json, what).toBeTypeOf('object');
}

describe('sandbox JSON answers', () => {
  it('are exactly application/json on the API, for answers, errors and unknown routes', async () => {
    const token = mintUserToken(sandbox);
    expectExactJson(await call(sandbox.urls.api, 'GET', '/public/v1/users', { token }), 'users');
    expectExactJson(await call(sandbox.urls.api, 'GET', '/public/v1/public-key'), 'public key');
    expectExactJson(await call(sandbox.urls.api, 'GET', '/public/v1/users'), '401 without a token');
    expectExactJson(await call(sandbox.urls.api, 'GET', '/public/v1/nope', { token }), 'unknown route');
    expectExactJson(await call(sandbox.urls.api, 'PUT', '/public/v1/users', { token }), 'wrong method');
  });

  it('are exactly application/json on the OAuth host, for tokens and errors', async () => {
    const form = (fields: Record<string, string>) => ({
      rawBody: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const { clientId, clientSecret } = sandbox.describe();
    const granted = await call(
      sandbox.urls.auth,
      'POST',
      '/oauth/token',
      form({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
    );
    expect(granted.status).toBe(200);
    expectExactJson(granted, 'client credentials');
    const refused = await call(sandbox.urls.auth, 'POST', '/oauth/token', form({ grant_type: 'password' }));
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expectExactJson(refused, 'refused grant');
    expectExactJson(await call(sandbox.urls.auth, 'GET', '/nope'), 'unknown route');
  });

  it('are exactly application/json on the admin API', async () => {
    expectExactJson(await call(sandbox.urls.admin, 'GET', '/', { headers: admin }), 'describe');
    expectExactJson(await call(sandbox.urls.admin, 'GET', '/nope', { headers: admin }), 'unknown route');
    expectExactJson(await call(sandbox.urls.admin, 'GET', '/'), 'no token');
  });
});

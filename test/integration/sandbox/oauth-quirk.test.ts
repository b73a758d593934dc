/**
 * Kick's documented 127.0.0.1 quirk ([reference §2.1](../../../docs/kick-wire-reference.md#21-authorize)): the authorize frontend rewrites the FIRST
 * `127.0.0.1` in the URL to `localhost` before reading it. The pure rewrite first, then both ways over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import { rewriteFirstLoopbackIp } from '../../../sandbox/oauth/loopback-quirk';
import { startSandbox } from '../../helpers/sandbox';
import {
  authorize,
  authorizeParams,
  codeFrom,
  createPkce,
  exchangeCode,
  expectOAuthError,
  redirectLocation,
  type QueryPairs,
} from './oauth-flow';

const keys = createSigningKeys();
const LOOPBACK_CALLBACK = 'http://127.0.0.1:3000/callback';

describe('rewriteFirstLoopbackIp', () => {
  it('rewrites only the first occurrence', () => {
    expect(rewriteFirstLoopbackIp('redirect=127.0.0.1&redirect_uri=http%3A%2F%2F127.0.0.1%3A3000%2Fcallback')).toBe(
      'redirect=localhost&redirect_uri=http%3A%2F%2F127.0.0.1%3A3000%2Fcallback',
    );
    expect(rewriteFirstLoopbackIp('redirect_uri=http%3A%2F%2F127.0.0.1%3A3000%2Fcb&x=127.0.0.1')).toBe(
      'redirect_uri=http%3A%2F%2Flocalhost%3A3000%2Fcb&x=127.0.0.1',
    );
  });

  it('leaves a query without 127.0.0.1 alone, and does not touch lookalikes', () => {
    expect(rewriteFirstLoopbackIp('redirect_uri=http%3A%2F%2Flocalhost%3A3000')).toBe(
      'redirect_uri=http%3A%2F%2Flocalhost%3A3000',
    );
    expect(rewriteFirstLoopbackIp('a=127.0.0.2&b=127-0-0-1')).toBe('a=127.0.0.2&b=127-0-0-1');
    expect(rewriteFirstLoopbackIp('')).toBe('');
  });
});

describe('authorize with a 127.0.0.1 redirect URI', () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox.close());

  /** The authorize params with a throwaway `redirect=127.0.0.1` placed before or after `redirect_uri`. */
  function withThrowaway(pkce: ReturnType<typeof createPkce>, where: 'before' | 'after'): QueryPairs {
    const params = authorizeParams(sandbox, pkce, { redirect_uri: LOOPBACK_CALLBACK });
    const at = params.findIndex(([k]) => k === 'redirect_uri') + (where === 'after' ? 1 : 0);
    params.splice(at, 0, ['redirect', '127.0.0.1']);
    return params;
  }

  it('fails the exact match when redirect_uri holds the first 127.0.0.1 (only 127.0.0.1 registered)', async () => {
    sandbox = await startSandbox({ keys, redirectUris: [LOOPBACK_CALLBACK] });
    const res = await authorize(sandbox, authorizeParams(sandbox, createPkce(), { redirect_uri: LOOPBACK_CALLBACK }));
    expectOAuthError(res, 'redirect_uri: http://localhost:3000/callback does not exactly match');
    // A throwaway param after redirect_uri is too late to absorb the rewrite.
    expectOAuthError(
      await authorize(sandbox, withThrowaway(createPkce(), 'after')),
      'redirect_uri: http://localhost:3000',
    );
  });

  it('works when a throwaway 127.0.0.1 param comes before redirect_uri', async () => {
    sandbox = await startSandbox({ keys, redirectUris: [LOOPBACK_CALLBACK] });
    const pkce = createPkce();
    const res = await authorize(sandbox, withThrowaway(pkce, 'before'));
    const location = redirectLocation(res);
    expect(`${location.origin}${location.pathname}`).toBe(LOOPBACK_CALLBACK);
    const token = await exchangeCode(sandbox, codeFrom(res), pkce.verifier, { redirect_uri: LOOPBACK_CALLBACK });
    expect(token.status, token.text).toBe(200);
  });

  it('sends the browser to localhost when both forms are registered, so the code is bound to localhost', async () => {
    sandbox = await startSandbox({ keys });
    const pkce = createPkce();
    const res = await authorize(sandbox, authorizeParams(sandbox, pkce, { redirect_uri: LOOPBACK_CALLBACK }));
    const location = redirectLocation(res);
    expect(`${location.origin}${location.pathname}`).toBe('http://localhost:3000/callback');
    const code = codeFrom(res);
    expectOAuthError(
      await exchangeCode(sandbox, code, pkce.verifier, { redirect_uri: LOOPBACK_CALLBACK }),
      'redirect_uri: must equal',
    );
    expect((await exchangeCode(sandbox, code, pkce.verifier)).status).toBe(200);
  });
});

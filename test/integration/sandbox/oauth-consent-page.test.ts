/**
 * id.kick.com in the sandbox, part 1: authorize (validation, consent page, auto-approve) and the
 * authorization-code + PKCE exchange, all over real HTTP ([reference §2.1](../../../docs/kick-wire-reference.md#21-authorize), [§2.2](../../../docs/kick-wire-reference.md#22-token)).
 *
 * This file: “consent page”.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox } from '../../../sandbox/index';
import { MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { call, startSandbox } from '../../helpers/sandbox';
import {
  authorize,
  authorizeParams,
  codeFrom,
  createPkce,
  exchangeCode,
  expectOAuthError,
  postForm,
  redirectLocation,
  tokenOf,
} from './oauth-flow';
import { keys } from './oauth-fixtures';

describe('consent page', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ keys, autoApproveUserId: null });
  });
  afterAll(() => sandbox.close());

  async function openConsent(pkce = createPkce()): Promise<{ html: string; requestId: string }> {
    const res = await authorize(sandbox, authorizeParams(sandbox, pkce, { scope: 'user:read moderation:ban' }));
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const requestId = /name="request_id" value="([^"]+)"/.exec(res.text)?.[1];
    expect(requestId).toBeTruthy();
    return { html: res.text, requestId: requestId! };
  }

  const decide = (fields: Record<string, string>) => postForm(sandbox.urls.auth, '/oauth/authorize/decision', fields);

  it('renders a self-contained page naming the sandbox, the app, the scopes and the users', async () => {
    const { html } = await openConsent();
    expect(html).toContain('Greenroom Kick sandbox');
    expect(html).toContain('Greenroom (sandbox)');
    expect(html).toContain('<code>user:read</code>');
    expect(html).toContain('<code>moderation:ban</code>');
    expect(html).toContain(`<option value="${STREAMER_USER_ID}" selected>sandbox_streamer (streamer)</option>`);
    expect(html).toContain(`<option value="${MODERATOR_USER_ID}">sandbox_mod (moderator)</option>`);
    expect(html.match(/\(viewer\)/g)?.length).toBe(4);
    expect(html).toMatch(/<form method="post" action="\/oauth\/authorize\/decision">/);
    expect(html).not.toMatch(/<script|<link|<img|src=|url\(/i);
  });

  it('approves as the chosen moderator and issues a code for that user', async () => {
    const pkce = createPkce();
    const { requestId } = await openConsent(pkce);
    const res = await decide({ request_id: requestId, user_id: String(MODERATOR_USER_ID), decision: 'approve' });
    const token = await exchangeCode(sandbox, codeFrom(res), pkce.verifier);
    expect(token.status).toBe(200);
    expect(token.json.scope).toBe('user:read moderation:ban');
    expect(sandbox.ctx.state.accessTokens.get(tokenOf(token).access_token)?.userId).toBe(MODERATOR_USER_ID);
    // The request is decided: its form cannot be replayed.
    expectOAuthError(await decide({ request_id: requestId, user_id: '100001', decision: 'approve' }), 'request_id:');
  });

  it('denies with access_denied and the state', async () => {
    const { requestId } = await openConsent();
    const location = redirectLocation(await decide({ request_id: requestId, user_id: '100001', decision: 'deny' }));
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toBeNull();
    expectOAuthError(await decide({ request_id: requestId, decision: 'approve', user_id: '100001' }), 'request_id:');
  });

  it('rejects bad decisions without losing the pending request', async () => {
    const pkce = createPkce();
    const { requestId } = await openConsent(pkce);
    expectOAuthError(await decide({ request_id: 'forged', user_id: '100001', decision: 'approve' }), 'request_id:');
    expectOAuthError(
      await decide({ request_id: requestId, user_id: '999', decision: 'approve' }),
      'user_id: not a sandbox user',
    );
    expectOAuthError(await decide({ request_id: requestId, user_id: '1e5', decision: 'approve' }), 'user_id:');
    expectOAuthError(await decide({ request_id: requestId, user_id: '100001', decision: 'maybe' }), 'decision:');
    const json = await call(sandbox.urls.auth, 'POST', '/oauth/authorize/decision', {
      body: { request_id: requestId },
    });
    expectOAuthError(json, 'Content-Type');
    const ok = await decide({ request_id: requestId, user_id: String(STREAMER_USER_ID), decision: 'approve' });
    expect((await exchangeCode(sandbox, codeFrom(ok), pkce.verifier)).status).toBe(200);
  });

  it('expires a pending request with the code lifetime', async () => {
    const { requestId } = await openConsent();
    sandbox.ctx.clock.advance(sandbox.ctx.state.lifetimes.codeSeconds * 1000);
    expectOAuthError(await decide({ request_id: requestId, user_id: '100001', decision: 'approve' }), 'request_id:');
  });
});

import { connect } from 'node:net';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenExternal } from '../../../electron/kick/auth/sign-in';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { type BrowserVisit, createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startSandbox } from '../../helpers/sandbox';

/** Resolves true when nothing listens on the port any more. */
function portClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const portOf = (url: string): number => Number(new URL(new URL(url).searchParams.get('redirect_uri')!).port);

describe('PKCE sign-in against the sandbox', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({ autoApproveUserId: STREAMER_USER_ID });
  });
  afterEach(() => sandbox.close());

  it('signs in through the system browser and a one-shot loopback listener', async () => {
    const browser = createTestBrowser(sandbox);
    const kick = kickOnSandbox(sandbox, { openExternal: browser.open });
    await kick.signIn();
    await browser.settled();
    const visits = browser.visits;
    expect(kick.session.state()).toMatchObject({
      status: 'signed-in',
      scopes: expect.arrayContaining(['chat:write', 'moderation:ban']),
    });
    expect(visits).toHaveLength(1);
    expect(visits[0]!.callbackStatus).toBe(200);
    expect(visits[0]!.callbackPage).toContain('You can close this tab');
    // The authorize URL works around Kick's 127.0.0.1 rewrite with a decoy parameter before redirect_uri.
    expect(visits[0]!.authorizeUrl).toMatch(/\?redirect=127\.0\.0\.1&client_id=/);
    expect(await portClosed(portOf(visits[0]!.authorizeUrl))).toBe(true);
    await expect(kick.introspect()).resolves.toMatchObject({ active: true, token_type: 'user' });
    await expect(kick.client.fetchCurrentUser()).resolves.toMatchObject({ user_id: STREAMER_USER_ID });
    await kick.close();
  });

  it('uses a fresh verifier and state for every attempt', async () => {
    const browser = createTestBrowser(sandbox);
    const kick = kickOnSandbox(sandbox, { openExternal: browser.open });
    await kick.signIn();
    await kick.signIn();
    await browser.settled();
    const [a, b] = browser.visits.map((v) => new URL(v.authorizeUrl).searchParams);
    expect(a!.get('state')).not.toBe(b!.get('state'));
    expect(a!.get('code_challenge')).not.toBe(b!.get('code_challenge'));
    expect(a!.get('code_challenge_method')).toBe('S256');
    await kick.close();
  });

  it('answers a stray callback 404 and keeps waiting for the real one', async () => {
    // Any local web page can send the browser to the callback; none of these may end the sign-in.
    const strays: { path: string; status: number; page: string }[] = [];
    const opener: OpenExternal = async (url) => {
      const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
      const state = new URL(url).searchParams.get('state')!;
      for (const query of [
        '?state=x',
        '?code=forged&state=x',
        '?error=access_denied&state=x',
        '?code=forged',
        `?code=forged&state=${state}&state=${state}`,
        `?code=forged&state=${state.slice(0, -1)}`,
      ]) {
        const stray = await request(new URL(`${redirect.pathname}${query}`, redirect));
        strays.push({ path: query, status: stray.statusCode, page: await stray.body.text() });
      }
      await createTestBrowser(sandbox).open(url);
    };
    const kick = kickOnSandbox(sandbox, { openExternal: opener });
    await kick.signIn();
    expect(strays.map((s) => [s.path, s.status])).toEqual(strays.map((s) => [s.path, 404]));
    expect(strays.every((s) => !s.page.includes('Greenroom'))).toBe(true);
    expect(kick.session.state().status).toBe('signed-in');
    await kick.close();
  });

  it('ends cleanly when the streamer denies access on the consent page', async () => {
    sandbox.ctx.autoApproveUserId = null;
    let port = 0;
    let load: Promise<void> = Promise.resolve();
    const visits: BrowserVisit[] = [];
    const deny = async (authorizeUrl: string): Promise<void> => {
      port = portOf(authorizeUrl);
      sandbox.ctx.app.redirectUris.push(new URL(authorizeUrl).searchParams.get('redirect_uri')!);
      const page = await (await request(authorizeUrl)).body.text();
      const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1];
      expect(requestId).toBeTruthy();
      const decision = await request(new URL('/oauth/authorize/decision', sandbox.urls.auth), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          request_id: requestId!,
          user_id: String(STREAMER_USER_ID),
          decision: 'deny',
        }).toString(),
      });
      await decision.body.text();
      const callback = await request(decision.headers.location as string);
      visits.push({ authorizeUrl, callbackStatus: callback.statusCode, callbackPage: await callback.body.text() });
    };
    const denyingBrowser: OpenExternal = (url) => (load = deny(url));
    const kick = kickOnSandbox(sandbox, { openExternal: denyingBrowser });
    await expect(kick.signIn()).rejects.toMatchObject({ code: 'AuthDenied' });
    await load;
    expect(visits[0]!.callbackPage).toContain('declined');
    expect(await portClosed(port)).toBe(true);
    await kick.close();
  });

  it('times out when no callback arrives, and closes the listener', async () => {
    let port = 0;
    const kick = kickOnSandbox(sandbox, {
      signInTimeoutMs: 150,
      openExternal: (url) => {
        port = portOf(url);
        return Promise.resolve();
      },
    });
    await expect(kick.signIn()).rejects.toMatchObject({ code: 'AuthTimedOut' });
    expect(await portClosed(port)).toBe(true);
    await kick.close();
  });

  it('can be cancelled, and closes the listener', async () => {
    const controller = new AbortController();
    let port = 0;
    const kick = kickOnSandbox(sandbox, {
      openExternal: (url) => {
        port = portOf(url);
        controller.abort();
        return Promise.resolve();
      },
    });
    await expect(kick.signIn({ signal: controller.signal })).rejects.toMatchObject({ code: 'AuthCancelled' });
    expect(await portClosed(port)).toBe(true);
    await kick.close();
  });

  it('ignores stray requests to other paths while waiting', async () => {
    const opener: OpenExternal = async (url) => {
      const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
      const stray = await request(new URL('/favicon.ico', redirect));
      expect(stray.statusCode).toBe(404);
      await stray.body.text();
      await createTestBrowser(sandbox).open(url);
    };
    const kick = kickOnSandbox(sandbox, { openExternal: opener });
    await kick.signIn();
    expect(kick.session.state().status).toBe('signed-in');
    await kick.close();
  });
});

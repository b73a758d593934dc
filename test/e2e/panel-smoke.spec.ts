/**
 * The must-show: through the panel server in Debian's Chromium, with the real services against the
 * embedded sandbox, the panel loads under the production CSP, the streamer signs in on the sandbox's
 * consent page, and a chat message triggered in the sandbox appears. Also: the panel server refuses a
 * wrong access token, both for the page and for the WebSocket.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANEL_CLOSE, PANEL_WS_PATH } from '../../shared/panel-protocol';
import { triggerEvent } from '../../sandbox/triggers';
import { type E2E, startE2E } from './harness';
import { signIn } from './sign-in';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 15_000 };

/** A WebSocket upgrade sent by hand, so the HTTP status of a refusal can be read (browsers hide it). */
function upgradeStatus(port: number, path: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      headers: {
        host: `127.0.0.1:${port}`,
        origin,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': Buffer.from('greenroom-e2e-ws').toString('base64'),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 101);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the panel in a browser, against the sandbox', () => {
  let e2e: E2E;
  let panelUrl: URL;
  // Every CSP violation the panel page reports; the production policy must not block the panel itself.
  const violations: string[] = [];

  beforeAll(async () => {
    e2e = await startE2E();
    panelUrl = new URL(e2e.launched.panel!.url);
    e2e.page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) {
        violations.push(message.text());
      }
    });
  });
  afterAll(() => e2e.close());

  it('loads with the production CSP and says it runs on the sandbox', async () => {
    const response = await e2e.page.reload();
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    const port = panelUrl.port;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`);
    // Images: the panel itself plus exactly the emote hosts: the sandbox's API, and Kick's for when saved
    // credentials switch the running app to Kick (the policy stays as it was when the page loaded).
    expect(new URL(e2e.sandbox.urls.api).hostname).toBe('127.0.0.1');
    expect(csp).toContain(`img-src 'self' data: http://127.0.0.1:* https://files.kick.com;`);
    expect(response?.headers()['x-frame-options']).toBe('DENY');

    await e2e.page
      .getByText(/sandbox/i)
      .first()
      .waitFor(WAIT);
    await e2e.page.getByRole('button', { name: 'Sign in with Kick' }).waitFor(WAIT);
    await e2e.page.getByRole('log', { name: 'Chat messages' }).waitFor(WAIT);
    expect(violations).toEqual([]);
    await e2e.screenshot('panel-signed-out');
  });

  it('signs in through the consent page and shows a chat message triggered in the sandbox', async () => {
    const consent = await signIn(e2e);
    await e2e.screenshot('panel-sign-in-consent-done', consent);
    expect(await consent.textContent('body')).toContain('You can close this tab');

    // The panel shows who is signed in and that chat can be sent.
    const { page } = e2e;
    await openSection(page, 'Health');
    await page.getByText('Signed in as').first().waitFor(WAIT);
    expect(await page.getByRole('tabpanel').textContent()).toContain('sandbox_streamer');
    await expect.poll(() => page.getByRole('textbox', { name: 'Chat message' }).isEnabled(), WAIT).toBe(true);

    // Greenroom subscribes to chat on sign-in; from then on the sandbox delivers chat by webhook.
    await expect
      .poll(() => [...e2e.sandbox.ctx.state.subscriptions.values()].map((s) => s.event), WAIT)
      .toContain('chat.message.sent');
    const content = 'hello from the e2e smoke test';
    const [fired] = triggerEvent(e2e.sandbox.ctx, 'chat.message.sent', {
      rng: () => 0.5, // a fixed draw: a plain line, never a random reply
      overrides: { content, 'sender.username': 'lunarfox' },
    });
    const messageId = (fired!.payload as { message_id: string }).message_id;
    expect(e2e.sandbox.ctx.state.chatMessages.get(messageId)?.content).toBe(content);

    const log = page.getByRole('log', { name: 'Chat messages' });
    const row = log.locator(`article[data-message-id="${messageId}"]`);
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain(content);
    expect(await row.getByRole('button', { name: 'lunarfox' }).isVisible()).toBe(true);
    expect(violations).toEqual([]);
    await e2e.screenshot('panel-signed-in');
  });

  it('refuses a wrong access token for the page and for the WebSocket', async () => {
    const port = Number(panelUrl.port);
    const origin = panelUrl.origin;

    // The page: the dock URL with a wrong token is a 403 that says what is needed.
    const stranger = await e2e.context.newPage();
    const wrong = new URL(panelUrl);
    wrong.searchParams.set('token', 'not-the-panel-token-0123456789abcdefghijkl');
    const response = await stranger.goto(wrong.href);
    expect(response?.status()).toBe(403);
    expect(await stranger.textContent('body')).toContain('needs its access token');
    await e2e.screenshot('panel-wrong-token', stranger);
    await stranger.close();

    // The WebSocket upgrade: a wrong token in the URL is a 403; the right one upgrades (101).
    expect(await upgradeStatus(port, `${PANEL_WS_PATH}?token=wrong-token`, origin)).toBe(403);
    expect(await upgradeStatus(port, `${PANEL_WS_PATH}?token=${e2e.launched.panel!.token}`, origin)).toBe(101);
    // ...and the right token from a foreign page's origin is refused too.
    expect(
      await upgradeStatus(port, `${PANEL_WS_PATH}?token=${e2e.launched.panel!.token}`, 'http://evil.example'),
    ).toBe(403);

    // From the browser: a wrong token in the URL never opens; a wrong token in the hello frame is closed
    // with the "unauthorized" code, so the panel's client stops reconnecting.
    const outcome = await e2e.page.evaluate(
      async ({ wsBase, wsPath }) => {
        const viaQuery = await new Promise<string>((resolve) => {
          const ws = new WebSocket(`${wsBase}${wsPath}?token=wrong-token`);
          ws.onopen = () => resolve('opened');
          ws.onclose = (event) => resolve(`closed ${event.code}`);
        });
        const viaHello = await new Promise<string>((resolve) => {
          const ws = new WebSocket(`${wsBase}${wsPath}`);
          ws.onopen = () => ws.send(JSON.stringify({ type: 'hello', token: 'wrong-token' }));
          ws.onclose = (event) => resolve(`closed ${event.code}`);
        });
        return { viaQuery, viaHello };
      },
      { wsBase: `ws://127.0.0.1:${port}`, wsPath: PANEL_WS_PATH },
    );
    expect(outcome.viaQuery).toBe('closed 1006');
    expect(outcome.viaHello).toBe(`closed ${PANEL_CLOSE.unauthorized}`);

    // The panel itself is still connected and working.
    expect(await e2e.page.getByRole('textbox', { name: 'Chat message' }).isEnabled()).toBe(true);
  });
});

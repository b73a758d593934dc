/**
 * The panel server over real HTTP and WebSocket on 127.0.0.1, with the real contract router behind it:
 * the token, Host and Origin guards, the static files and their headers, traversal, the WebSocket
 * handshake, validation answers, event fan-out to authorized sockets only, and hostile frames.
 *
 * This file: “HTTP”; “WebSocket handshake”; “Closing”.
 */
import { describe, expect, it } from 'vitest';
import { startPanelServer } from '../../../electron/panel-server/panel-server';
import { PANEL_CLOSE } from '../../../shared/panel-protocol';
import { rawGet } from '../../helpers/panel-fakes';
import { authorizedSocket, fx, pageCookie, socket, useSetup } from './panel-server-fixtures';

useSetup();

describe('HTTP', () => {
  it('serves the page with the token, sets the cookie, and sends the security headers', async () => {
    expect(fx.server.url).toBe(`http://127.0.0.1:${fx.server.port}/?token=${fx.server.token}`);
    expect(fx.server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await rawGet(fx.server.port, `/?token=${fx.server.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Greenroom</title>');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https://files.kick.com; font-src 'self'; " +
        `connect-src 'self' ws://127.0.0.1:${fx.server.port} ws://localhost:${fx.server.port}; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toEqual([
      `greenroom_panel_${fx.server.port}=${await pageCookie()}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
  });

  it('serves the page files with the cookie alone, with their content types', async () => {
    const cookie = `greenroom_panel_${fx.server.port}=${await pageCookie()}`;
    const js = await rawGet(fx.server.port, '/assets/app-1a2b.js', { cookie });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(js.headers['set-cookie']).toBeUndefined();
    expect(js.headers['content-security-policy']).toContain("default-src 'none'");
    const css = await rawGet(fx.server.port, '/assets/app-1a2b.css', { cookie });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const head = await rawGet(fx.server.port, '/assets/app-1a2b.js', { cookie }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers 403 with a one-line explanation without the token, or with a wrong one', async () => {
    for (const path of ['/', '/index.html', '/assets/app-1a2b.js', '/?token=nope', `/?token=${fx.server.token}x`]) {
      const res = await rawGet(fx.server.port, path);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatch(/^Greenroom panel: this address needs its access token.*\n$/);
      expect(res.body.split('\n')).toHaveLength(2);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const wrongCookie = await rawGet(fx.server.port, '/', { cookie: `greenroom_panel_${fx.server.port}=nope` });
    expect(wrongCookie.status).toBe(403);
  });

  it('puts a value in the cookie that is not the token and unlocks the files only, never the WebSocket', async () => {
    // Cookies ignore ports: any other local web server the browser visits receives this cookie.
    const leaked = await pageCookie();
    expect(leaked).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(leaked).not.toBe(fx.server.token);
    expect(leaked).not.toContain(fx.server.token.slice(0, 8));
    const cookie = `greenroom_panel_${fx.server.port}=${leaked}`;
    expect((await rawGet(fx.server.port, '/assets/app-1a2b.js', { cookie })).status).toBe(200);
    // As a token it opens nothing: not the page URL, not the upgrade query, not the hello.
    expect((await rawGet(fx.server.port, `/?token=${leaked}`)).status).toBe(403);
    const viaQuery = socket(`${fx.wsUrl}?token=${leaked}`, { origin: fx.origin, headers: { cookie } });
    await expect(viaQuery.opened()).rejects.toThrow('upgrade refused: 403');
    const viaHello = socket(fx.wsUrl, { origin: fx.origin, headers: { cookie } });
    await viaHello.opened();
    viaHello.send({ type: 'hello', token: leaked });
    expect(await viaHello.closed()).toBe(PANEL_CLOSE.unauthorized);
    // The cookie alone does not authorize a socket either: its first request closes it unanswered.
    const cookieOnly = socket(fx.wsUrl, { origin: fx.origin, headers: { cookie } });
    await cookieOnly.opened();
    cookieOnly.send({ id: 1, type: 'invoke', channel: 'chat:history', args: [] });
    expect(await cookieOnly.closed()).toBe(PANEL_CLOSE.policy);
    expect([...viaHello.all, ...cookieOnly.all]).toEqual([]);
    expect(fx.app.calls).toEqual([]);
    expect(fx.server.clientCount()).toBe(0);
  });

  it('keeps the same cookie value across restarts with the same token, so a reloaded dock still loads', async () => {
    const first = await pageCookie();
    const again = await startPanelServer({
      router: fx.app.router,
      events: fx.app.events,
      staticDir: fx.rendererDir,
      token: fx.server.token,
    });
    try {
      const res = await rawGet(again.port, `/?token=${fx.server.token}`);
      expect(res.headers['set-cookie']?.[0]).toContain(`=${first};`);
      const other = await startPanelServer({ router: fx.app.router, events: fx.app.events, staticDir: fx.rendererDir });
      try {
        const cookie = `greenroom_panel_${other.port}=${first}`;
        expect((await rawGet(other.port, '/', { cookie })).status).toBe(403);
      } finally {
        await other.close();
      }
    } finally {
      await again.close();
    }
  });

  it('refuses a foreign Host header even with the right token (DNS rebinding)', async () => {
    for (const host of [
      'attacker.example',
      `attacker.example:${fx.server.port}`,
      '127.0.0.1:1',
      `127.0.0.2:${fx.server.port}`,
    ]) {
      const res = await rawGet(fx.server.port, `/?token=${fx.server.token}`, { host });
      expect(res.status, host).toBe(403);
      expect(res.body).toContain('unexpected Host header');
      expect(res.body).not.toContain('Greenroom</title>');
    }
    const local = await rawGet(fx.server.port, `/?token=${fx.server.token}`, { host: `localhost:${fx.server.port}` });
    expect(local.status).toBe(200);
  });

  it('refuses traversal and never serves files outside the folder, symlinks or source maps', async () => {
    const q = `?token=${fx.server.token}`;
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets//app-1a2b.js',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const res = await rawGet(fx.server.port, `${path}${q}`);
      expect(res.status, path).toBe(400);
      expect(res.body).not.toContain('TOP-SECRET');
    }
    for (const path of ['/assets/linked.txt', '/assets/app-1a2b.js.map', '/nope.html']) {
      const res = await rawGet(fx.server.port, `${path}${q}`);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('TOP-SECRET');
    }
  });

  it('answers other methods 405 and the WebSocket path without an upgrade 426', async () => {
    const post = await rawGet(fx.server.port, `/?token=${fx.server.token}`, {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const ws = await rawGet(fx.server.port, `/ws?token=${fx.server.token}`);
    expect(ws.status).toBe(426);
  });

  it('says the panel is not built when the folder is missing', async () => {
    const bare = await startPanelServer({
      router: fx.app.router,
      events: fx.app.events,
      staticDir: `${fx.rendererDir}-none`,
    });
    try {
      const res = await rawGet(bare.port, `/?token=${bare.token}`);
      expect(res.status).toBe(503);
      expect(res.body).toContain('npm run build');
    } finally {
      await bare.close();
    }
  });

  it('listens on 127.0.0.1 only and keeps a given token', async () => {
    const fixed = await startPanelServer({
      router: fx.app.router,
      events: fx.app.events,
      staticDir: fx.rendererDir,
      token: 'a'.repeat(43),
    });
    try {
      expect(fixed.token).toBe('a'.repeat(43));
      expect((await rawGet(fixed.port, `/?token=${'a'.repeat(43)}`)).status).toBe(200);
    } finally {
      await fixed.close();
    }
  });
});

describe('WebSocket handshake', () => {
  it('accepts a hello with the token and answers ready', async () => {
    const s = await authorizedSocket();
    expect(s.all).toEqual([{ type: 'ready' }]);
    expect(fx.server.clientCount()).toBe(1);
  });

  it('accepts the token in the upgrade query, and refuses a wrong one there with 403', async () => {
    const good = socket(`${fx.wsUrl}?token=${fx.server.token}`);
    await good.opened();
    await good.next('ready');
    const bad = socket(`${fx.wsUrl}?token=wrong`);
    await expect(bad.opened()).rejects.toThrow('upgrade refused: 403');
  });

  it('closes a socket whose hello carries a wrong token, with the unauthorized code', async () => {
    const s = socket();
    await s.opened();
    s.send({ type: 'hello', token: `${fx.server.token.slice(0, -1)}x` });
    expect(await s.closed()).toBe(PANEL_CLOSE.unauthorized);
    expect(s.all).toEqual([]);
    expect(fx.app.calls).toEqual([]);
  });

  it('closes a socket that sends anything before its hello, without running it', async () => {
    const s = socket();
    await s.opened();
    s.send({ id: 1, type: 'invoke', channel: 'chat:history', args: [] });
    expect(await s.closed()).toBe(PANEL_CLOSE.policy);
    expect(fx.app.calls).toEqual([]);
  });

  it('closes a socket that never says hello', async () => {
    await fx.server.close();
    fx.server = await startPanelServer({
      router: fx.app.router,
      events: fx.app.events,
      staticDir: fx.rendererDir,
      helloTimeoutMs: 50,
    });
    const s = socket(`ws://127.0.0.1:${fx.server.port}/ws`, { origin: `http://127.0.0.1:${fx.server.port}` });
    await s.opened();
    expect(await s.closed()).toBe(PANEL_CLOSE.unauthorized);
  });

  it('refuses foreign, missing and look-alike origins before the upgrade, even with the token', async () => {
    for (const o of [
      'https://evil.example',
      `http://127.0.0.1:${fx.server.port + 1}`,
      `https://127.0.0.1:${fx.server.port}`,
      'null',
      undefined,
    ]) {
      const s = socket(`${fx.wsUrl}?token=${fx.server.token}`, o === undefined ? {} : { origin: o });
      await expect(s.opened(), String(o)).rejects.toThrow('upgrade refused: 403');
    }
    const viaLocalhost = socket(`ws://localhost:${fx.server.port}/ws?token=${fx.server.token}`, {
      origin: `http://localhost:${fx.server.port}`,
    });
    await viaLocalhost.opened();
    expect(fx.app.logs.some((l) => l.includes('refused a WebSocket from origin https://evil.example'))).toBe(true);
  });

  it('refuses an upgrade with a foreign Host, or on another path', async () => {
    const rebound = socket(`${fx.wsUrl}?token=${fx.server.token}`, {
      origin: fx.origin,
      headers: { host: `attacker.example:${fx.server.port}` },
    });
    await expect(rebound.opened()).rejects.toThrow('upgrade refused: 403');
    const elsewhere = socket(`ws://127.0.0.1:${fx.server.port}/other?token=${fx.server.token}`);
    await expect(elsewhere.opened()).rejects.toThrow('upgrade refused: 404');
  });
});

describe('Closing', () => {
  it('finishes when a socket opens while a slow one is still being closed, and closes that one too', async () => {
    const slow = await authorizedSocket();
    // It never reads the server's going-away frame, so the server waits out its grace period for it.
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const closing = fx.server.close();
    const late = await authorizedSocket();
    await closing;
    expect(await late.closed()).toBe(1006);
  });
});

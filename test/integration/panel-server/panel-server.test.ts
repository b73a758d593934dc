/**
 * The panel server over real HTTP and WebSocket on 127.0.0.1, with the real contract router behind it:
 * the token, Host and Origin guards, the static files and their headers, traversal, the WebSocket
 * handshake, validation answers, event fan-out to authorized sockets only, and hostile frames.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPanelServer, type PanelServer } from '../../../electron/panel-server/panel-server';
import { PANEL_CLOSE, PANEL_MAX_FRAME_BYTES } from '../../../shared/panel-protocol';
import type { FeedItem } from '../../../shared/views';
import { createFakeApp, makeRendererDir, rawGet, TestSocket, type FakeApp } from '../../helpers/panel-fakes';

let app: FakeApp;
let server: PanelServer;
let rendererDir: string;
let origin: string;
let wsUrl: string;
const sockets: TestSocket[] = [];

function socket(url = wsUrl, options: { origin?: string; headers?: Record<string, string> } = { origin }): TestSocket {
  const s = new TestSocket(url, options);
  sockets.push(s);
  return s;
}

/** The value the server puts in its cookie when the page loads with the token. */
async function pageCookie(): Promise<string> {
  const res = await rawGet(server.port, `/?token=${server.token}`);
  const header = (res.headers['set-cookie'] ?? [])[0] ?? '';
  const value = /^greenroom_panel_\d+=([^;]+);/.exec(header)?.[1];
  if (value === undefined) {
    throw new Error(`no panel cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  }
  return value;
}

/** A socket past the hello, ready for requests. */
async function authorizedSocket(): Promise<TestSocket> {
  const s = socket();
  await s.opened();
  s.send({ type: 'hello', token: server.token });
  await s.next('ready');
  return s;
}

const feedItem: FeedItem = {
  id: 'f1',
  kind: 'follow',
  atMs: 1,
  text: 'pixelpanda followed',
  userId: 7,
  username: 'pixelpanda',
  eventType: 'channel.followed',
};

beforeEach(async () => {
  app = createFakeApp();
  rendererDir = makeRendererDir().dir;
  server = await startPanelServer({
    router: app.router,
    events: app.events,
    port: 0,
    staticDir: rendererDir,
    log: (line) => app.logs.push(line),
    imageHosts: ['https://files.kick.com/emotes/'],
  });
  origin = `http://127.0.0.1:${server.port}`;
  wsUrl = `ws://127.0.0.1:${server.port}/ws`;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) {
    s.ws.terminate();
  }
  await server.close();
  rmSync(dirname(rendererDir), { recursive: true, force: true });
});

describe('HTTP', () => {
  it('serves the page with the token, sets the cookie, and sends the security headers', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await rawGet(server.port, `/?token=${server.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Greenroom</title>');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https://files.kick.com; " +
        `connect-src 'self' ws://127.0.0.1:${server.port} ws://localhost:${server.port}; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toEqual([
      `greenroom_panel_${server.port}=${await pageCookie()}; HttpOnly; SameSite=Strict; Path=/`,
    ]);
  });

  it('serves the page files with the cookie alone, with their content types', async () => {
    const cookie = `greenroom_panel_${server.port}=${await pageCookie()}`;
    const js = await rawGet(server.port, '/assets/app-1a2b.js', { cookie });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(js.headers['set-cookie']).toBeUndefined();
    expect(js.headers['content-security-policy']).toContain("default-src 'none'");
    const css = await rawGet(server.port, '/assets/app-1a2b.css', { cookie });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const head = await rawGet(server.port, '/assets/app-1a2b.js', { cookie }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers 403 with a one-line explanation without the token, or with a wrong one', async () => {
    for (const path of ['/', '/index.html', '/assets/app-1a2b.js', '/?token=nope', `/?token=${server.token}x`]) {
      const res = await rawGet(server.port, path);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatch(/^Greenroom panel: this address needs its access token.*\n$/);
      expect(res.body.split('\n')).toHaveLength(2);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const wrongCookie = await rawGet(server.port, '/', { cookie: `greenroom_panel_${server.port}=nope` });
    expect(wrongCookie.status).toBe(403);
  });

  it('puts a value in the cookie that is not the token and unlocks the files only, never the WebSocket', async () => {
    // Cookies ignore ports: any other local web server the browser visits receives this cookie.
    const leaked = await pageCookie();
    expect(leaked).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(leaked).not.toBe(server.token);
    expect(leaked).not.toContain(server.token.slice(0, 8));
    const cookie = `greenroom_panel_${server.port}=${leaked}`;
    expect((await rawGet(server.port, '/assets/app-1a2b.js', { cookie })).status).toBe(200);
    // As a token it opens nothing: not the page URL, not the upgrade query, not the hello.
    expect((await rawGet(server.port, `/?token=${leaked}`)).status).toBe(403);
    const viaQuery = socket(`${wsUrl}?token=${leaked}`, { origin, headers: { cookie } });
    await expect(viaQuery.opened()).rejects.toThrow('upgrade refused: 403');
    const viaHello = socket(wsUrl, { origin, headers: { cookie } });
    await viaHello.opened();
    viaHello.send({ type: 'hello', token: leaked });
    expect(await viaHello.closed()).toBe(PANEL_CLOSE.unauthorized);
    // The cookie alone does not authorize a socket either: its first request closes it unanswered.
    const cookieOnly = socket(wsUrl, { origin, headers: { cookie } });
    await cookieOnly.opened();
    cookieOnly.send({ id: 1, type: 'invoke', channel: 'chat:history', args: [] });
    expect(await cookieOnly.closed()).toBe(PANEL_CLOSE.policy);
    expect([...viaHello.all, ...cookieOnly.all]).toEqual([]);
    expect(app.calls).toEqual([]);
    expect(server.clientCount()).toBe(0);
  });

  it('keeps the same cookie value across restarts with the same token, so a reloaded dock still loads', async () => {
    const first = await pageCookie();
    const again = await startPanelServer({
      router: app.router,
      events: app.events,
      staticDir: rendererDir,
      token: server.token,
    });
    try {
      const res = await rawGet(again.port, `/?token=${server.token}`);
      expect(res.headers['set-cookie']?.[0]).toContain(`=${first};`);
      const other = await startPanelServer({ router: app.router, events: app.events, staticDir: rendererDir });
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
      `attacker.example:${server.port}`,
      '127.0.0.1:1',
      `127.0.0.2:${server.port}`,
    ]) {
      const res = await rawGet(server.port, `/?token=${server.token}`, { host });
      expect(res.status, host).toBe(403);
      expect(res.body).toContain('unexpected Host header');
      expect(res.body).not.toContain('Greenroom</title>');
    }
    const local = await rawGet(server.port, `/?token=${server.token}`, { host: `localhost:${server.port}` });
    expect(local.status).toBe(200);
  });

  it('refuses traversal and never serves files outside the folder, symlinks or source maps', async () => {
    const q = `?token=${server.token}`;
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
      const res = await rawGet(server.port, `${path}${q}`);
      expect(res.status, path).toBe(400);
      expect(res.body).not.toContain('TOP-SECRET');
    }
    for (const path of ['/assets/linked.txt', '/assets/app-1a2b.js.map', '/nope.html']) {
      const res = await rawGet(server.port, `${path}${q}`);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('TOP-SECRET');
    }
  });

  it('answers other methods 405 and the WebSocket path without an upgrade 426', async () => {
    const post = await rawGet(server.port, `/?token=${server.token}`, {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const ws = await rawGet(server.port, `/ws?token=${server.token}`);
    expect(ws.status).toBe(426);
  });

  it('says the panel is not built when the folder is missing', async () => {
    const bare = await startPanelServer({ router: app.router, events: app.events, staticDir: `${rendererDir}-none` });
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
      router: app.router,
      events: app.events,
      staticDir: rendererDir,
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
    expect(server.clientCount()).toBe(1);
  });

  it('accepts the token in the upgrade query, and refuses a wrong one there with 403', async () => {
    const good = socket(`${wsUrl}?token=${server.token}`);
    await good.opened();
    await good.next('ready');
    const bad = socket(`${wsUrl}?token=wrong`);
    await expect(bad.opened()).rejects.toThrow('upgrade refused: 403');
  });

  it('closes a socket whose hello carries a wrong token, with the unauthorized code', async () => {
    const s = socket();
    await s.opened();
    s.send({ type: 'hello', token: `${server.token.slice(0, -1)}x` });
    expect(await s.closed()).toBe(PANEL_CLOSE.unauthorized);
    expect(s.all).toEqual([]);
    expect(app.calls).toEqual([]);
  });

  it('closes a socket that sends anything before its hello, without running it', async () => {
    const s = socket();
    await s.opened();
    s.send({ id: 1, type: 'invoke', channel: 'chat:history', args: [] });
    expect(await s.closed()).toBe(PANEL_CLOSE.policy);
    expect(app.calls).toEqual([]);
  });

  it('closes a socket that never says hello', async () => {
    await server.close();
    server = await startPanelServer({
      router: app.router,
      events: app.events,
      staticDir: rendererDir,
      helloTimeoutMs: 50,
    });
    const s = socket(`ws://127.0.0.1:${server.port}/ws`, { origin: `http://127.0.0.1:${server.port}` });
    await s.opened();
    expect(await s.closed()).toBe(PANEL_CLOSE.unauthorized);
  });

  it('refuses foreign, missing and look-alike origins before the upgrade, even with the token', async () => {
    for (const o of [
      'https://evil.example',
      `http://127.0.0.1:${server.port + 1}`,
      `https://127.0.0.1:${server.port}`,
      'null',
      undefined,
    ]) {
      const s = socket(`${wsUrl}?token=${server.token}`, o === undefined ? {} : { origin: o });
      await expect(s.opened(), String(o)).rejects.toThrow('upgrade refused: 403');
    }
    const viaLocalhost = socket(`ws://localhost:${server.port}/ws?token=${server.token}`, {
      origin: `http://localhost:${server.port}`,
    });
    await viaLocalhost.opened();
    expect(app.logs.some((l) => l.includes('refused a WebSocket from origin https://evil.example'))).toBe(true);
  });

  it('refuses an upgrade with a foreign Host, or on another path', async () => {
    const rebound = socket(`${wsUrl}?token=${server.token}`, {
      origin,
      headers: { host: `attacker.example:${server.port}` },
    });
    await expect(rebound.opened()).rejects.toThrow('upgrade refused: 403');
    const elsewhere = socket(`ws://127.0.0.1:${server.port}/other?token=${server.token}`);
    await expect(elsewhere.opened()).rejects.toThrow('upgrade refused: 404');
  });
});

describe('WebSocket messages', () => {
  it('runs a valid request through the router and answers with its id', async () => {
    const s = await authorizedSocket();
    s.send({ id: 7, type: 'invoke', channel: 'chat:send', args: [{ content: 'hi', as: 'bot' }] });
    expect(await s.next('result')).toEqual({
      type: 'result',
      id: 7,
      result: { ok: true, value: { echo: [{ content: 'hi', as: 'bot' }] } },
    });
    expect(app.calls).toEqual([{ channel: 'chat:send', args: [{ content: 'hi', as: 'bot' }] }]);
  });

  it('answers a bad argument InvalidArgument and an unknown channel UnknownChannel, running nothing', async () => {
    const s = await authorizedSocket();
    s.send({ id: 1, type: 'invoke', channel: 'chat:send', args: [{ content: '', as: 'bot' }] });
    const bad = await s.next('result');
    expect(bad.result).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    s.send({ id: 2, type: 'invoke', channel: 'mod:ban', args: [{ userId: -1, extra: true }] });
    expect((await s.next('result')).result).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    s.send({ id: 3, type: 'invoke', channel: 'fs:read-file', args: ['/etc/passwd'] });
    const unknown = await s.next('result');
    expect(unknown).toMatchObject({ id: 3, result: { ok: false, error: { code: 'UnknownChannel' } } });
    s.send({ id: 4, type: 'invoke', channel: 'toString', args: [] });
    expect((await s.next('result')).result).toMatchObject({ ok: false, error: { code: 'UnknownChannel' } });
    expect(app.calls).toEqual([]);
  });

  it('passes sends through the router, which drops invalid ones', async () => {
    const s = await authorizedSocket();
    s.send({ type: 'send', channel: 'app:open-external', args: [{ url: 'file:///etc/passwd' }] });
    s.send({ type: 'send', channel: 'window:pop-out-chat', args: [] });
    // A request after the sends: its answer proves both sends were handled (frames are processed in order).
    s.send({ id: 9, type: 'invoke', channel: 'chat:history', args: [] });
    await s.next('result');
    expect(app.calls.map((c) => c.channel)).toEqual(['window:pop-out-chat', 'chat:history']);
    expect(app.logs.some((l) => l.includes('dropped a message: InvalidArgument'))).toBe(true);
  });

  it('answers Internal when a handler throws, without the error text', async () => {
    app.answer('chat:history', () => Promise.reject(new Error('secret path /home/x/.config')));
    const s = await authorizedSocket();
    s.send({ id: 5, type: 'invoke', channel: 'chat:history', args: [] });
    const res = await s.next('result');
    expect(res.result).toMatchObject({ ok: false, error: { code: 'Internal' } });
    expect(JSON.stringify(res)).not.toContain('secret path');
  });

  it('answers malformed frames with an error frame and keeps serving', async () => {
    const s = await authorizedSocket();
    for (const frame of [
      'not json',
      '[]',
      'null',
      '{"type":"invoke","id":-1,"channel":"chat:history","args":[]}',
      '{"type":"invoke","id":"x","channel":"chat:history","args":[]}',
      '{"type":"rm -rf"}',
      '{"type":"hello","token":"again"}',
    ]) {
      s.send(frame);
      expect((await s.next('error')).error.code, frame).toBe('InvalidArgument');
    }
    s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await s.next('error')).error.message).toContain('binary');
    s.send({ id: 1, type: 'invoke', channel: 'chat:history', args: [] });
    expect((await s.next('result')).result.ok).toBe(true);
  });

  it('closes a socket that sends an oversize frame, and the server keeps running', async () => {
    const s = await authorizedSocket();
    s.send({ id: 1, type: 'invoke', channel: 'chat:history', args: ['x'.repeat(PANEL_MAX_FRAME_BYTES)] });
    expect(await s.closed()).toBe(PANEL_CLOSE.tooBig);
    const next = await authorizedSocket();
    next.send({ id: 2, type: 'invoke', channel: 'chat:history', args: [] });
    expect((await next.next('result')).id).toBe(2);
  });

  it('accepts the largest legal request (1000 redemption ids of 64 characters)', async () => {
    const s = await authorizedSocket();
    const ids = Array.from({ length: 1000 }, (_, i) => String(i).padStart(64, '0'));
    s.send({ id: 3, type: 'invoke', channel: 'redemptions:accept', args: [{ ids }] });
    expect((await s.next('result')).result.ok).toBe(true);
  });
});

describe('events', () => {
  it("sends one turn's events in one frame, in order, serialised once for every client", async () => {
    const a = await authorizedSocket();
    const b = await authorizedSocket();
    const before = [a.frames.length, b.frames.length];
    for (let i = 0; i < 100; i++) {
      app.events.emit('chat:deleted', { messageId: `burst-${i}` });
    }
    for (const s of [a, b]) {
      for (let i = 0; i < 100; i++) {
        expect(await s.next('event')).toMatchObject({ payload: { messageId: `burst-${i}` } });
      }
    }
    expect(a.frames.slice(before[0])).toHaveLength(1);
    expect(b.frames.slice(before[1])).toEqual([
      {
        type: 'events',
        events: Array.from({ length: 100 }, (_, i) => ({
          event: 'chat:deleted',
          payload: { messageId: `burst-${i}` },
        })),
      },
    ]);
    // A lone event keeps the single-event frame.
    app.events.emit('chat:deleted', { messageId: 'alone' });
    expect(await a.next('event')).toEqual({ type: 'event', event: 'chat:deleted', payload: { messageId: 'alone' } });
    expect(a.frames.at(-1)).toEqual({ type: 'event', event: 'chat:deleted', payload: { messageId: 'alone' } });
  });

  it('an event a request caused reaches the panel before that request answers', async () => {
    const s = await authorizedSocket();
    app.answer('chat:history', () => {
      app.events.emit('chat:deleted', { messageId: 'caused' });
      return Promise.resolve([]);
    });
    s.send({ id: 41, type: 'invoke', channel: 'chat:history', args: [] });
    expect((await s.next('result')).id).toBe(41);
    const order = s.frames.map((f) => f.type);
    expect(order.lastIndexOf('event')).toBeLessThan(order.lastIndexOf('result'));
  });

  it('pushes every event to authorized sockets only', async () => {
    const a = await authorizedSocket();
    const b = await authorizedSocket();
    const pending = socket();
    await pending.opened();
    app.events.emit('kick:event', { kind: 'feed', item: feedItem });
    app.events.emit('chat:deleted', { messageId: 'm1' });
    for (const s of [a, b]) {
      expect(await s.next('event')).toEqual({
        type: 'event',
        event: 'kick:event',
        payload: { kind: 'feed', item: feedItem },
      });
      expect(await s.next('event')).toEqual({ type: 'event', event: 'chat:deleted', payload: { messageId: 'm1' } });
    }
    // The unauthorized socket got nothing; once it says hello it receives only later events.
    pending.send({ type: 'hello', token: server.token });
    await pending.next('ready');
    app.events.emit('chat:deleted', { messageId: 'm2' });
    expect(await pending.next('event')).toMatchObject({ payload: { messageId: 'm2' } });
    expect(pending.all.filter((f) => f.type === 'event')).toHaveLength(1);
  });

  it('stops pushing to closed sockets and unsubscribes from the app on close', async () => {
    const a = await authorizedSocket();
    a.ws.close();
    await a.closed();
    await expect.poll(() => server.clientCount()).toBe(0);
    app.events.emit('chat:deleted', { messageId: 'm1' });
    const b = await authorizedSocket();
    await server.close();
    expect(await b.closed()).toBe(PANEL_CLOSE.goingAway);
    // No listener is left behind: emitting after close reaches nobody and throws nothing.
    app.events.emit('chat:deleted', { messageId: 'm3' });
    expect(b.all.filter((f) => f.type === 'event')).toEqual([]);
  });

  it('drops a client that falls too far behind instead of buffering without bound', async () => {
    await server.close();
    server = await startPanelServer({
      router: app.router,
      events: app.events,
      staticDir: rendererDir,
      maxBufferedBytes: 1,
      log: (line) => app.logs.push(line),
    });
    origin = `http://127.0.0.1:${server.port}`;
    wsUrl = `ws://127.0.0.1:${server.port}/ws`;
    const s = await authorizedSocket();
    // Pause reading so the server's send buffer cannot drain.
    (s.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = { kind: 'feed' as const, item: { ...feedItem, text: 'x'.repeat(64 * 1024) } };
    for (let i = 0; i < 200 && server.clientCount() > 0; i++) {
      app.events.emit('kick:event', big);
      await new Promise((r) => setImmediate(r));
    }
    expect(server.clientCount()).toBe(0);
    expect(app.logs).toContain('panel: dropping a client that fell too far behind');
  });
});

/** The desktop shell's pure decisions: window security options, who may use IPC, which links open, tray state, icons. */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { drawAppIcon, drawStatusDot, encodePngRgba } from '../../../../electron/shell/icon-png';
import { guardOpenExternal, isOpenableUrl } from '../../../../electron/shell/open-external';
import { trayStatus } from '../../../../electron/shell/tray-status';
import { createSenderCheck } from '../../../../electron/shell/trusted-sender';
import { routeUrl, WINDOW_ROUTES, windowOptions } from '../../../../electron/shell/window-options';
import type { AccountView, HealthView } from '../../../../shared/views';

describe('windowOptions', () => {
  it('locks every window down and keeps only the companion on top', () => {
    for (const kind of ['main', 'chat', 'companion'] as const) {
      const options = windowOptions(kind, { width: 500, height: 400, maximized: false }, '/app/out/preload/index.cjs');
      expect(options.webPreferences).toMatchObject({
        preload: '/app/out/preload/index.cjs',
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        webviewTag: false,
        webSecurity: true,
      });
      expect(options.alwaysOnTop).toBe(kind === 'companion');
      expect(options.show).toBe(false);
      expect('x' in options).toBe(false);
    }
    expect(windowOptions('chat', { x: 5, y: 6, width: 1, height: 1, maximized: false }, 'p')).toMatchObject({
      x: 5,
      y: 6,
    });
    expect(WINDOW_ROUTES).toEqual({ main: {}, chat: { hash: '/chat' }, companion: { query: { compact: '1' } } });
    expect(routeUrl('http://localhost:5173/', 'chat')).toBe('http://localhost:5173/#/chat');
    expect(routeUrl('http://localhost:5173/', 'companion')).toBe('http://localhost:5173/?compact=1');
    expect(routeUrl('http://localhost:5173/', 'main')).toBe('http://localhost:5173/');
  });
});

describe('createSenderCheck', () => {
  it('accepts our packaged page only, whatever its hash', () => {
    const check = createSenderCheck('file:///opt/Greenroom/resources/app.asar/out/renderer/index.html');
    expect(check('file:///opt/Greenroom/resources/app.asar/out/renderer/index.html#/chat')).toBe(true);
    expect(check('file:///opt/Greenroom/resources/app.asar/out/renderer/other.html')).toBe(false);
    expect(check('file:///home/me/Downloads/index.html')).toBe(false);
    expect(check('https://kick.com/')).toBe(false);
    expect(check('')).toBe(false);
  });

  it('accepts the dev server origin only', () => {
    const check = createSenderCheck('http://localhost:5173/');
    expect(check('http://localhost:5173/#/chat')).toBe(true);
    expect(check('http://localhost:5174/')).toBe(false);
    expect(check('http://127.0.0.1:5173/')).toBe(false);
  });
});

describe('open-external guard', () => {
  it('opens https anywhere and http on this computer only', async () => {
    for (const url of [
      'https://id.kick.com/oauth/authorize?x=1',
      'http://127.0.0.1:41234/oauth/authorize',
      'http://localhost:1/',
    ]) {
      expect(isOpenableUrl(url), url).toBe(true);
    }
    for (const url of [
      'http://kick.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'https://u:p@kick.com/',
      'nope',
    ]) {
      expect(isOpenableUrl(url), url).toBe(false);
    }
    const opened: string[] = [];
    const open = guardOpenExternal((url) => {
      opened.push(url);
      return Promise.resolve();
    });
    await open('https://kick.com/');
    await expect(open('file:///etc/passwd')).rejects.toMatchObject({ code: 'InvalidArgument' });
    expect(opened).toEqual(['https://kick.com/']);
  });
});

describe('trayStatus', () => {
  const account = (signedIn: boolean): AccountView => ({
    signedIn,
    accountLabel: signedIn ? 'pixelpanda' : null,
    userId: signedIn ? 1 : null,
    scopes: [],
    expiresAtMs: null,
    signedOutReason: null,
    signingIn: false,
    signInUrl: null,
  });
  const health = (patch: Partial<HealthView> = {}): HealthView => ({
    mode: 'kick',
    tunnel: { state: 'up', url: 'https://x.loca.lt' },
    webhookUrl: null,
    subscriptions: [{ type: 'chat.message.sent', state: 'active' }],
    lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'normal', delayMs: null },
    receiver: { port: null, url: null },
    counters: { accepted: 0, duplicates: 0, rejected: 0 },
    secretStore: { backend: 'x', degraded: false },
    ...patch,
  });

  it('is grey signed out, green when events flow, amber with the reason otherwise', () => {
    expect(trayStatus({ mode: 'sandbox', account: account(false), health: health() })).toEqual({
      level: 'off',
      tooltip: 'Greenroom (sandbox): not signed in',
    });
    expect(trayStatus({ mode: 'kick', account: account(true), health: health() })).toEqual({
      level: 'ok',
      tooltip: 'Greenroom: pixelpanda, events flowing',
    });
    const down = health({ tunnel: { state: 'down', reason: 'offline', retryInMs: 5000 } });
    expect(trayStatus({ mode: 'kick', account: account(true), health: down }).tooltip).toBe(
      'Greenroom: pixelpanda, tunnel down (offline)',
    );
    const missing = health({
      subscriptions: [
        { type: 'a', state: 'missing' },
        { type: 'b', state: 'error' },
      ],
    });
    expect(trayStatus({ mode: 'kick', account: account(true), health: missing })).toMatchObject({
      level: 'warn',
      tooltip: 'Greenroom: pixelpanda, 2 event subscriptions missing',
    });
    const late = health({ lag: { samples: 9, p50Ms: 1, p95Ms: 90_000, state: 'delayed', delayMs: 1 } });
    expect(trayStatus({ mode: 'kick', account: account(true), health: late }).tooltip).toContain(
      'events arriving late',
    );
  });
});

describe('icons', () => {
  /** Decodes our own PNG layout (one IDAT, filter 0) back to RGBA. */
  function decode(png: Buffer): { width: number; height: number; rgba: Buffer } {
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect([png[24], png[25]]).toEqual([8, 6]);
    const idatLength = png.readUInt32BE(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      raw.copy(rgba, y * width * 4, y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1));
    }
    return { width, height, rgba };
  }

  it('round-trips RGBA through the encoder', () => {
    const rgba = Buffer.from([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 1, 2, 3, 4]);
    expect(decode(encodePngRgba(2, 2, rgba))).toEqual({ width: 2, height: 2, rgba });
    expect(() => encodePngRgba(2, 2, Buffer.alloc(3))).toThrow(RangeError);
  });

  it('draws a status dot: coloured centre, transparent corners', () => {
    const { rgba } = decode(drawStatusDot(16, 'ok'));
    const centre = (8 * 16 + 8) * 4;
    expect([...rgba.subarray(centre, centre + 4)]).toEqual([0x22, 0xc5, 0x5e, 255]);
    expect(rgba[3]).toBe(0);
    const { width } = decode(drawAppIcon(64));
    expect(width).toBe(64);
  });
});

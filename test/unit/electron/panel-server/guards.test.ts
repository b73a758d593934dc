/** The panel server's pure pieces: CSP, Host/Origin/token checks, cookie parsing, path normalisation, token file. */
import { tempDir } from '../../../helpers/temp-dir';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPanelCsp, imageSources } from '../../../../electron/panel-server/csp';
import { createPanelToken } from '../../../../electron/secrets/access-token';
import {
  isAllowedHost,
  isAllowedOrigin,
  panelCookieValue,
  panelOrigins,
  readCookie,
  tokensEqual,
} from '../../../../electron/panel-server/http-guards';
import { loadOrCreatePanelToken, PANEL_TOKEN_FILE_NAME } from '../../../../electron/panel-server/panel-token';
import { contentTypeFor, normalizeRequestPath } from '../../../../electron/panel-server/static-files';

describe('buildPanelCsp', () => {
  it('is the production policy with the WebSocket and emote host', () => {
    expect(buildPanelCsp({ port: 7531, imageHosts: ['https://files.kick.com'] })).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https://files.kick.com; font-src 'self'; " +
        "connect-src 'self' ws://127.0.0.1:7531 ws://localhost:7531; base-uri 'none'; form-action 'none'; " +
        "frame-ancestors 'none'",
    );
  });

  it('keeps only http(s) origins from image hosts, so nothing can inject a directive', () => {
    expect(
      imageSources([
        'https://files.kick.com/emotes/x?y',
        "https://a.example; script-src 'unsafe-inline'",
        'javascript:alert(1)',
        'not a url',
        'http://127.0.0.1:41234/',
        'https://files.kick.com',
      ]),
    ).toEqual(['https://files.kick.com', 'http://127.0.0.1:*']);
  });

  it('drops a wildcard or an odd host name, which the URL parser lets through into an origin', () => {
    expect(
      imageSources([
        'https://*',
        'https://*.example.com',
        'https://a%2A.example',
        'https://user:pw@files.kick.com',
        'http://files.kick.com',
        'https://files.kick.com',
      ]),
    ).toEqual(['https://files.kick.com']);
  });

  it("allows a host on this computer on any port (the sandbox's port changes at every start), no other host", () => {
    expect(
      imageSources([
        'http://127.0.0.1:41234',
        'http://127.0.0.1:50000/x',
        'http://localhost:9',
        'https://a.example:8443',
      ]),
    ).toEqual(['http://127.0.0.1:*', 'http://localhost:*', 'https://a.example:8443']);
  });
});

describe('guards', () => {
  it('makes 32-byte base64url tokens, different every time', () => {
    const a = createPanelToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createPanelToken()).not.toBe(a);
  });

  it('compares tokens exactly, whatever the lengths', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abd', 'abc')).toBe(false);
    expect(tokensEqual('ab', 'abc')).toBe(false);
    expect(tokensEqual('', 'abc')).toBe(false);
  });

  it('accepts only this server under 127.0.0.1 or localhost as Host', () => {
    expect(isAllowedHost('127.0.0.1:7531', 7531)).toBe(true);
    expect(isAllowedHost('LOCALHOST:7531', 7531)).toBe(true);
    for (const host of [
      undefined,
      '',
      '127.0.0.1',
      '127.0.0.1:7532',
      'evil.example:7531',
      '[::1]:7531',
      '0.0.0.0:7531',
    ]) {
      expect(isAllowedHost(host, 7531), String(host)).toBe(false);
    }
  });

  it('accepts only the panel origins', () => {
    const allowed = panelOrigins(7531);
    expect(isAllowedOrigin('http://127.0.0.1:7531', allowed)).toBe(true);
    expect(isAllowedOrigin('http://LOCALHOST:7531', allowed)).toBe(true);
    for (const origin of [undefined, 'null', 'file://', 'https://127.0.0.1:7531', 'http://127.0.0.1:75310']) {
      expect(isAllowedOrigin(origin, allowed), String(origin)).toBe(false);
    }
  });

  it('derives a cookie value that is not the token, differs per token and stays the same for one token', () => {
    const token = createPanelToken();
    const value = panelCookieValue(token);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(value).not.toBe(token);
    expect(panelCookieValue(token)).toBe(value);
    expect(panelCookieValue(createPanelToken())).not.toBe(value);
    expect(tokensEqual(value, token)).toBe(false);
  });

  it('reads one cookie by exact name', () => {
    expect(readCookie('a=1; greenroom_panel_1=tok; b=2', 'greenroom_panel_1')).toBe('tok');
    expect(readCookie('xgreenroom_panel_1=tok', 'greenroom_panel_1')).toBeNull();
    expect(readCookie(undefined, 'x')).toBeNull();
  });
});

describe('static paths', () => {
  it('maps plain paths and refuses anything that could walk out', () => {
    expect(normalizeRequestPath('/')).toBe('/index.html');
    expect(normalizeRequestPath('/assets/app-1.js')).toBe('/assets/app-1.js');
    expect(normalizeRequestPath('/a%20b.png')).toBe('/a b.png');
    for (const path of ['/..', '/a/../b', '/%2e%2e/x', '/./x', '//x', '/a\\b', '/%5c', '/%00', '/%zz', 'x', '/a/']) {
      expect(normalizeRequestPath(path), path).toBeNull();
    }
  });

  it('knows the renderer content types', () => {
    expect(contentTypeFor('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('a.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('f.woff2')).toBe('font/woff2');
    expect(contentTypeFor('x.exe')).toBe('application/octet-stream');
  });
});

describe('loadOrCreatePanelToken', () => {
  it('creates a 0600 token file once and returns the same token afterwards', () => {
    const dir = join(tempDir('greenroom-token-'), 'data');
    const token = loadOrCreatePanelToken(dir);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loadOrCreatePanelToken(dir)).toBe(token);
    const file = join(dir, PANEL_TOKEN_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
  });

  it('replaces a file that does not hold a token', () => {
    const dir = tempDir('greenroom-token-');
    writeFileSync(join(dir, PANEL_TOKEN_FILE_NAME), 'short');
    const token = loadOrCreatePanelToken(dir);
    expect(token).not.toBe('short');
    expect(loadOrCreatePanelToken(dir)).toBe(token);
  });
});

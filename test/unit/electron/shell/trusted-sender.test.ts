/**
 * The IPC sender check against the URLs Chromium really reports for our page: install paths with `%`,
 * spaces, non-ASCII and either case of a Windows drive letter (docs/desktop-runtime.md#who-may-use-ipc).
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filePathOfUrl } from '../../../../electron/shell/file-url-path';
import { createPageSenderCheck, createSenderCheck } from '../../../../electron/shell/trusted-sender';
import { INSTALL_PATHS, loadFileFrameUrl } from './loadfile-url-fixtures';

const ROUTES = [{}, { hash: '/chat' }, { query: { compact: '1' } }];

describe('the sender check for a loaded file', () => {
  it.each(INSTALL_PATHS)('accepts every window of our page installed at $index ($platform)', ({ platform, index }) => {
    const byPath = createPageSenderCheck({ file: index }, platform);
    for (const route of ROUTES) {
      const frameUrl = loadFileFrameUrl(index, platform, route);
      expect(byPath(frameUrl), frameUrl).toBe(true);
    }
  });

  it('accepts a `%` install path through the URL the app built before (pathToFileURL)', () => {
    const index = '/opt/100% Green/resources/app.asar/out/renderer/index.html';
    const check = createSenderCheck(pathToFileURL(index).href, 'linux');
    expect(check(loadFileFrameUrl(index, 'linux', { hash: '/chat' }))).toBe(true);
  });

  it('accepts either case of the drive letter on Windows, and only the same file', () => {
    const check = createPageSenderCheck({ file: 'c:\\Apps\\Green Room\\out\\renderer\\index.html' }, 'win32');
    expect(check('file:///C:/Apps/Green%20Room/out/renderer/index.html')).toBe(true);
    expect(check('file:///c:/apps/green%20room/out/renderer/index.html#/chat')).toBe(true);
    expect(check('file:///D:/Apps/Green%20Room/out/renderer/index.html')).toBe(false);
    expect(check('file://fileserver/Apps/Green%20Room/out/renderer/index.html')).toBe(false);
    expect(check('file:///C:/Apps/Green%20Room/out/renderer/other.html')).toBe(false);
    expect(check('file:///Apps/Green%20Room/out/renderer/index.html')).toBe(false);
  });

  it('refuses every other file, host and scheme', () => {
    const index = '/opt/100% Green/resources/app.asar/out/renderer/index.html';
    const check = createPageSenderCheck({ file: index }, 'linux');
    for (const url of [
      'file:///opt/100%2525%20Green/resources/app.asar/out/renderer/index.html',
      'file:///opt/100%%20Green/resources/app.asar/out/renderer/other.html',
      'file:///home/me/Downloads/index.html',
      'file://attacker.example/opt/100%%20Green/resources/app.asar/out/renderer/index.html',
      'file:///opt/100%%20Green/resources/app.asar/out/renderer/index.html%00.html',
      'file:///opt/100%%20Green/resources/app.asar/out/renderer/index.htm%FF',
      'https://kick.com/opt/100%%20Green/resources/app.asar/out/renderer/index.html',
      'not a url',
      '',
    ]) {
      expect(check(url), url).toBe(false);
    }
    // Linux paths keep their case: another spelling is another file.
    expect(check('file:///OPT/100%%20Green/resources/app.asar/out/renderer/index.html')).toBe(false);
  });

  it('refuses a path that only reaches our page on paper: escaped separators and empty segments', () => {
    const index = '/opt/Greenroom/resources/app.asar/out/renderer/index.html';
    const check = createPageSenderCheck({ file: index }, 'linux');
    for (const url of [
      'file:///tmp/link%2f..%2f..%2fopt/Greenroom/resources/app.asar/out/renderer/index.html',
      'file:///opt/Greenroom/resources/app.asar/out/renderer/x%2f..%2findex.html',
      'file:///opt/Greenroom/resources/app.asar/out/renderer/x%2F..%2Findex.html',
      'file:///opt/Greenroom/resources/app.asar/out/renderer//index.html',
    ]) {
      expect(check(url), url).toBe(false);
    }
    const windows = createPageSenderCheck({ file: 'C:\\Apps\\Greenroom\\out\\renderer\\index.html' }, 'win32');
    expect(windows('file:///C:/Apps/Greenroom/out/renderer/index.html')).toBe(true);
    expect(windows('file:///C:/Apps/x%5c..%5cGreenroom/out/renderer/index.html')).toBe(false);
    // The URL parser itself resolves `%2e%2e` segments, as Chromium does, so that names our page and nothing else.
    expect(windows('file:///C:/Apps/x/%2e%2e/Greenroom/out/renderer/index.html')).toBe(true);
  });

  it('accepts the dev server origin only', () => {
    const check = createPageSenderCheck({ devServerUrl: 'http://localhost:5173/' }, 'linux');
    expect(check('http://localhost:5173/#/chat')).toBe(true);
    expect(check('http://localhost:5174/')).toBe(false);
    expect(check('file:///home/me/index.html')).toBe(false);
  });
});

describe('filePathOfUrl', () => {
  it('reads a lone `%` as itself and escapes as the bytes they name', () => {
    expect(filePathOfUrl('file:///opt/100%%20Green/a%C3%BC.html', 'linux')).toBe('/opt/100% Green/aü.html');
    expect(filePathOfUrl('file:///C:/Users/Zo%C3%AB/100%%20Live/x.html', 'win32')).toBe(
      'C:\\Users\\Zoë\\100% Live\\x.html',
    );
    expect(filePathOfUrl('file://server/share/x.html', 'win32')).toBe('\\\\server\\share\\x.html');
    expect(filePathOfUrl('http://localhost/x.html', 'linux')).toBeNull();
  });
});

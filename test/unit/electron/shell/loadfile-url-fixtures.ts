/**
 * The URL a frame reports after Electron's `webContents.loadFile(file, { hash, query })`, built by the same
 * rules: Electron passes `url.format({ protocol: 'file', slashes: true, pathname: path.resolve(file), hash,
 * query })` to `loadURL` (lib/browser/api/web-contents.ts), which leaves `%`, spaces and non-ASCII as they
 * are; Chromium then canonicalises the URL as the URL Standard does (spaces and non-ASCII percent-encoded,
 * a lone `%` kept, backslashes to slashes), and upper-cases a Windows drive letter.
 */
import { posix, win32 } from 'node:path';
import { format } from 'node:url';

export function loadFileFrameUrl(
  file: string,
  platform: NodeJS.Platform,
  route: { hash?: string; query?: Record<string, string> } = {},
): string {
  const pathname = platform === 'win32' ? win32.resolve(file) : posix.resolve(file);
  const given = format({ protocol: 'file', slashes: true, pathname, ...route });
  const canonical = new URL(given).href;
  return canonical.replace(/^file:\/\/\/([a-z]):/, (_all, drive: string) => `file:///${drive.toUpperCase()}:`);
}

/** Install places a streamer can choose, each with the platform its path belongs to. */
export const INSTALL_PATHS: readonly { platform: NodeJS.Platform; index: string }[] = [
  { platform: 'linux', index: '/opt/Greenroom/resources/app.asar/out/renderer/index.html' },
  { platform: 'linux', index: '/opt/100% Green/resources/app.asar/out/renderer/index.html' },
  { platform: 'linux', index: '/home/zoë/Stream Tools/Greenroom/resources/app.asar/out/renderer/index.html' },
  { platform: 'linux', index: '/home/me/50%zz off/app.asar/out/renderer/index.html' },
  { platform: 'darwin', index: '/Applications/Greenroom 100%.app/Contents/Resources/app.asar/out/renderer/index.html' },
  { platform: 'darwin', index: '/Users/名前/Apps/Greenroom.app/Contents/Resources/app.asar/out/renderer/index.html' },
  { platform: 'win32', index: 'C:\\Program Files\\Greenroom\\resources\\app.asar\\out\\renderer\\index.html' },
  { platform: 'win32', index: 'C:\\Users\\Zoë\\100% Live\\Greenroom\\resources\\app.asar\\out\\renderer\\index.html' },
  // A development checkout: Node's own paths may carry a lower-case drive letter.
  { platform: 'win32', index: 'c:\\dev\\green room\\out\\renderer\\index.html' },
];

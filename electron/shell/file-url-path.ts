/**
 * The file on disk a `file://` URL names, for the platform the app runs on. Electron's `loadFile` hands
 * Chromium an unescaped path (`file:///C:\Program Files\100% Green\…`) and Chromium canonicalises it
 * (spaces and non-ASCII percent-encoded, a lone `%` kept as it is, backslashes turned to slashes, the
 * drive letter upper-cased), so the URL a frame reports is not the one `pathToFileURL` builds for the same
 * file. Comparing the paths both URLs name is what stays true ([desktop runtime](../../docs/desktop-runtime.md#who-may-use-ipc)).
 */
import { posix, win32 } from 'node:path';

const HEX = /^[0-9A-Fa-f]{2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Percent-decodes as the URL Standard does: a `%` not followed by two hex digits stays a `%` (Node's
 * `fileURLToPath` throws on it instead, and `100% Green` is a folder name a streamer can choose).
 */
function percentDecode(text: string): Uint8Array {
  const input = Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < input.length; i += 1) {
    const byte = input[i]!;
    const hex = byte === 0x25 ? input.subarray(i + 1, i + 3).toString('latin1') : '';
    if (HEX.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      out.push(byte);
    }
  }
  return Uint8Array.from(out);
}

/** The absolute path `href` names on `platform`, or null when it is not a local file URL. */
export function filePathOfUrl(href: string, platform: NodeJS.Platform): string | null {
  if (!URL.canParse(href)) {
    return null;
  }
  const url = new URL(href);
  if (url.protocol !== 'file:') {
    return null;
  }
  // An escaped separator or dot segment would be read as a path on paper (`link%2f..%2f`) while the kernel
  // resolves it through a link to another file: Chromium never writes one for a page it loaded, so refuse it.
  if (/%2f|%5c/i.test(url.pathname)) {
    return null;
  }
  let decoded: string;
  try {
    decoded = utf8.decode(percentDecode(url.pathname));
  } catch {
    return null;
  }
  if (decoded.includes('\0')) {
    return null;
  }
  if (platform !== 'win32') {
    // A host other than this computer is another machine's file, never our page.
    const local = url.hostname === '' || url.hostname === 'localhost';
    return local && posix.normalize(decoded) === decoded ? decoded : null;
  }
  const backslashed = decoded.replaceAll('/', '\\');
  const path = url.hostname !== '' ? `\\\\${url.hostname}${backslashed}` : backslashed.slice(1);
  // `/C:/…` → `C:\…`; a Windows file URL without a drive names no file.
  if (url.hostname === '' && !/^[A-Za-z]:\\/.test(path)) {
    return null;
  }
  return win32.normalize(path) === path ? path : null;
}

/**
 * Whether two absolute paths name the same file: Windows paths compare without case (drive letters and
 * the file system both ignore it), others exactly.
 */
export function samePath(a: string, b: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') {
    return win32.normalize(a).toLowerCase() === win32.normalize(b).toLowerCase();
  }
  return posix.normalize(a) === posix.normalize(b);
}

/**
 * The built renderer, loaded into memory once at start and served by exact path only. A request can reach
 * nothing but the files listed here, so no URL (`..`, encoded slashes, symlinks) can walk out of the
 * folder; paths that try are answered 400 before the lookup anyway.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/** One file ready to send. */
export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** Vite's content-hashed output under `assets/` never changes under the same name. */
  immutable: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** Files over this size are not served (the renderer has none; a stray video in the folder stays out). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** The content type for a file name; unknown kinds are sent as opaque bytes. */
export function contentTypeFor(name: string): string {
  return CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** The served files by URL path (`/index.html`, `/assets/index-abc.js`); empty when `dir` does not exist. */
export function loadStaticFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = join(folder, entry.name);
      // Symlinks are skipped on purpose: only real files inside the build folder are ever served.
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.isFile() && !entry.name.endsWith('.map') && statSync(full).size <= MAX_FILE_BYTES) {
        const path = `/${relative(dir, full).split(sep).join('/')}`;
        files.set(path, {
          body: readFileSync(full),
          contentType: contentTypeFor(entry.name),
          immutable: path.startsWith('/assets/'),
        });
      }
    }
  };
  try {
    walk(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  return files;
}

/**
 * Maps a request pathname to a lookup key, or null when the path is not a plain file path: undecodable,
 * a `..` or `.` segment, a backslash, a NUL, or an empty segment.
 */
export function normalizeRequestPath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\\') || decoded.includes('\0')) {
    return null;
  }
  if (decoded === '/') {
    return '/index.html';
  }
  const segments = decoded.slice(1).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    return null;
  }
  return decoded;
}

/**
 * What stands in the data folder where Greenroom expected a plain file or a folder, as an error the caller
 * can branch on (`code`, `kind`) and a phrase for the streamer (`what`), and the checks that raise it
 * (data-files.ts).
 */
import { closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync, readlinkSync, type Stats } from 'node:fs';

/** Mode of every folder Greenroom creates in the data folder. */
export const FOLDER_MODE = 0o700;

/** What stands at a path where a regular file (or folder) was expected. */
export type RefusedKind = 'link' | 'folder' | 'special' | 'hard-link' | 'file';

/**
 * A path in the data folder that Greenroom will not read or write through: a link, a folder or a special
 * file where a file belongs (or a file where a folder belongs). `code` is stable for callers to branch on.
 */
export class RefusedPathError extends Error {
  override readonly name = 'RefusedPathError';
  readonly code = 'EREFUSEDPATH';
  readonly path: string;
  readonly kind: RefusedKind;
  /** In the streamer's words: "a link to another place (/home/me/x)", "a folder", … */
  readonly what: string;

  constructor(path: string, kind: RefusedKind, what: string) {
    super(`${path} is ${what}; Greenroom will not follow or replace it`);
    this.path = path;
    this.kind = kind;
    this.what = what;
  }
}

/** The refusal for what `stats` (from lstat or fstat) says stands at `path`. */
export function refusal(path: string, stats: Stats, expected: 'file' | 'folder'): RefusedPathError {
  if (stats.isSymbolicLink()) {
    let target = '';
    try {
      target = ` (${printable(readlinkSync(path))})`;
    } catch {
      // The link went away meanwhile: still a link when it was seen.
    }
    return new RefusedPathError(path, 'link', `a link to another place${target}`);
  }
  if (stats.isDirectory()) {
    return new RefusedPathError(path, 'folder', 'a folder, not a file');
  }
  if (expected === 'folder' && stats.isFile()) {
    return new RefusedPathError(path, 'file', 'a file, not a folder');
  }
  return new RefusedPathError(path, 'special', 'not a regular file (a pipe, socket or device)');
}

/** Throws unless `stats` is a regular file (an lstat, so a link is seen as a link). */
export function requireFile(path: string, stats: Stats): void {
  if (!stats.isFile()) {
    throw refusal(path, stats, 'file');
  }
}

/** A file name or link target as one short, printable piece of a line. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is taken out
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

// --- Folders ---

/**
 * Makes the folder `path` (0700) if it is missing, and takes away what others may do in one that exists
 * (an older build, or a folder made by hand with the usual 0755): the journal and the dedup memory say what
 * was in chat. A link or a file standing there is refused: the folder is not followed to another place.
 */
export function ensureDataFolder(path: string): void {
  try {
    mkdirSync(path, { mode: FOLDER_MODE });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw error;
    }
  }
  const seen = lstatSync(path);
  if (!seen.isDirectory()) {
    throw refusal(path, seen, 'folder');
  }
  if (opensToOthers(seen)) {
    // Through the folder itself, never a link swapped in since the lstat (O_NOFOLLOW, O_DIRECTORY).
    const fd = openSync(path, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0));
    try {
      // The owner's own bits stay: a folder made read-only on purpose is not made writable.
      fchmodSync(fd, seen.mode & FOLDER_MODE);
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Whether `stats` gives the group or others any access. Windows keeps no such bits (Node reports 0666 or
 * 0777 there whatever the ACLs say), so there it is always false.
 */
export function opensToOthers(stats: Stats): boolean {
  return process.platform !== 'win32' && (stats.mode & 0o077) !== 0;
}

/**
 * What stands at `path` when it is not what belongs there: null for a regular file (or, with
 * `expected: 'folder'`, a real folder) and for nothing at all; otherwise the refusal to report.
 */
export function unexpectedAt(path: string, expected: 'file' | 'folder'): RefusedPathError | null {
  const seen = lstatSync(path, { throwIfNoEntry: false });
  if (!seen || (expected === 'file' ? seen.isFile() : seen.isDirectory())) {
    return null;
  }
  return refusal(path, seen, expected);
}

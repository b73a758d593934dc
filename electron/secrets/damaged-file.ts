/**
 * What Greenroom does with a file it cannot read back (the secrets, their key, the settings, the mod log):
 * the file is renamed to `<name>.damaged-<time>` beside itself, so nothing is deleted and the streamer (or
 * support) can still look at it, and the app starts without it. The caller says in one plain line which
 * file it was and what happens next ([design notes](../../docs/design-notes.md#files-in-the-data-folder)).
 *
 * The same one function keeps a copy under that name when a file is read in part (a bad entry left out)
 * and is about to be written again without the part: the original stays beside it
 * ([design notes](../../docs/design-notes.md#files-in-the-data-folder)). A link, folder or special file where
 * a file belongs is moved aside the same way: renaming a link moves the link, never what it points at.
 */
import { lstatSync, renameSync } from 'node:fs';
import { createDataFile, RefusedPathError, unexpectedAt } from '../core/data-files';

/** `2025-01-31T18-04-05-123Z`: an ISO time without the colons Windows does not allow in file names. */
function fileTime(nowMs: number): string {
  return new Date(nowMs).toISOString().replace(/[:.]/g, '-');
}

/**
 * Renames `path` to `<path>.damaged-<time>` (never over anything already there) and returns the new path.
 * With `copy`, `path` stays and those bytes (what was read from it) are written under the new name instead.
 */
export function moveAside(path: string, nowMs: number, options: { copy?: Uint8Array } = {}): string {
  const base = `${path}.damaged-${fileTime(nowMs)}`;
  let target = base;
  // lstat, not exists: a dangling link under the name is something there too.
  for (let n = 2; lstatSync(target, { throwIfNoEntry: false }); n++) {
    target = `${base}-${n}`;
  }
  if (options.copy) {
    createDataFile(target, options.copy);
  } else {
    renameSync(path, target);
  }
  return target;
}

/** The short reason an fs error gives (`EROFS`, `ENOSPC`, …), or its message. */
export function fsReason(error: unknown): string {
  if (error instanceof RefusedPathError) {
    return `it is ${error.what}, which Greenroom does not follow`;
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EROFS') {
    return 'the disk is read-only';
  }
  if (code === 'ENOSPC') {
    return 'the disk is full';
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return 'permission denied';
  }
  return code ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Why a file was moved aside, as the words after its path: "was damaged (not valid JSON)", "is a link to
 * another place (/x), which Greenroom will not follow", "is a folder, not a file, which Greenroom will not use".
 */
export function asideReason(cause: SyntaxError | RefusedPathError): string {
  if (!(cause instanceof RefusedPathError)) {
    return 'was damaged (not valid JSON)';
  }
  return `is ${cause.what}, which Greenroom will not ${cause.kind === 'link' ? 'follow' : 'use'}`;
}

/**
 * Opens a JSON file store with `open`. Before it, a link, folder or special file at `path` is moved aside
 * (conf and electron-store would follow a link, and hang on a pipe); when the file is not valid JSON (they
 * throw a SyntaxError naming it) it is moved aside too. Either way `open` then runs on a fresh file and
 * `onMovedAside` gets the new name and the reason ({@link asideReason}). Other failures (unreadable) are
 * not damage this can repair and are thrown.
 */
export function openMovingAsideDamage<T>(
  path: string,
  open: () => T,
  options: { nowMs: () => number; onMovedAside: (aside: string, reason: string) => void },
): T {
  const refused = unexpectedAt(path, 'file');
  if (refused) {
    options.onMovedAside(moveAside(path, options.nowMs()), asideReason(refused));
    return open();
  }
  try {
    return open();
  } catch (error) {
    if (!(error instanceof SyntaxError) || !lstatSync(path, { throwIfNoEntry: false })) {
      throw error;
    }
    const aside = moveAside(path, options.nowMs());
    options.onMovedAside(aside, asideReason(error));
    return open();
  }
}

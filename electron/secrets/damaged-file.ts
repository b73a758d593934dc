/**
 * What Greenroom does with a file it cannot read back (the secrets, their key, the settings): the file is
 * renamed to `<name>.damaged-<time>` beside itself, so nothing is deleted and the streamer (or support) can
 * still look at it, and the app starts without it. The caller says in one plain line which file it was and
 * what happens next (issue 9, "Start-up faults").
 */
import { existsSync, renameSync } from 'node:fs';

/** `2025-01-31T18-04-05-123Z`: an ISO time without the colons Windows does not allow in file names. */
function fileTime(nowMs: number): string {
  return new Date(nowMs).toISOString().replace(/[:.]/g, '-');
}

/** Renames `path` to `<path>.damaged-<time>` (never over an existing file) and returns the new path. */
export function moveAside(path: string, nowMs: number): string {
  const base = `${path}.damaged-${fileTime(nowMs)}`;
  let target = base;
  for (let n = 2; existsSync(target); n++) {
    target = `${base}-${n}`;
  }
  renameSync(path, target);
  return target;
}

/** The short reason an fs error gives (`EROFS`, `ENOSPC`, …), or its message. */
export function fsReason(error: unknown): string {
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
 * Opens a JSON file store with `open`; when the file is not valid JSON (conf and electron-store throw a
 * SyntaxError naming it) it is moved aside and `open` runs again on a fresh file. Other failures (the file
 * is a directory, unreadable) are not damage this can repair and are thrown.
 */
export function openMovingAsideDamage<T>(
  path: string,
  open: () => T,
  options: { nowMs: () => number; onMovedAside: (aside: string) => void },
): T {
  try {
    return open();
  } catch (error) {
    if (!(error instanceof SyntaxError) || !existsSync(path)) {
      throw error;
    }
    const aside = moveAside(path, options.nowMs());
    options.onMovedAside(aside);
    return open();
  }
}

/**
 * Safe access to the files in Greenroom's data folder ([design notes](../../docs/design-notes.md#files-in-the-data-folder)).
 * Every read, write and folder here stays inside the data folder:
 *
 * - A link (symlink) is never followed, on reading or on writing: `O_NOFOLLOW` on open (where the system has
 *   it) and an `lstat` before, so a link planted at `greenroom-settings.json` or `panel-token` cannot make
 *   Greenroom read or overwrite a file elsewhere. The caller is handed a {@link RefusedPathError} saying
 *   what stands there, and decides (usually: move it aside and start without it).
 * - Only regular files are read: a folder, a pipe (FIFO), a socket or a device is refused. A pipe is opened
 *   non-blocking, since reading one blocks until someone writes into it, which would hang the start.
 * - A file is replaced whole: a new file (0600, created exclusively, never through a link) is written and
 *   synced, then renamed over the old one. A rename replaces the name itself, never what a link there
 *   points at, so a link swapped in between the check and the rename is replaced, not followed.
 * - A file appended to in place must be one file: a hard link (a second name for the same file, possibly
 *   outside the folder) is refused, since appending would change it under its other name too.
 * - Files are created 0600 and folders 0700: only the streamer's account can read them. A folder made
 *   earlier (`ensureDataFolder`) or a file appended to is made so again when others could read it.
 *
 * Plain Node, no Electron: the sandbox's discovery file uses it too.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { type FileHandle, lstat, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { opensToOthers, refusal, RefusedPathError, requireFile } from './refused-path';

export {
  ensureDataFolder,
  FOLDER_MODE,
  opensToOthers,
  type RefusedKind,
  RefusedPathError,
  unexpectedAt,
} from './refused-path';

/** Mode of every file Greenroom creates in the data folder. */
export const FILE_MODE = 0o600;

// Windows has neither flag; there the lstat before each open is the check.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

/**
 * `open()` flags for code that opens data files itself (the journal, the dedup memory): each refuses a link
 * at the file's own name with ELOOP, which those callers already treat as a file they cannot use.
 */
export const NO_FOLLOW = {
  /** Reading; non-blocking, so a pipe put there cannot hang the read. */
  read: constants.O_RDONLY | NOFOLLOW | NONBLOCK,
  /** Appending, created if missing. */
  append: constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW,
  /** Writing from the start, created if missing. */
  replace: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW,
} as const;

// --- Reading ---

/**
 * The bytes of the regular file at `path`, or null when nothing is there. A link, folder or special file
 * is a {@link RefusedPathError}; any other failure (permission, I/O) is the system's error.
 */
export function readDataFile(path: string): Buffer | null {
  const seen = lstatSync(path, { throwIfNoEntry: false });
  if (!seen) {
    return null;
  }
  requireFile(path, seen);
  let fd: number;
  try {
    fd = openSync(path, NO_FOLLOW.read);
  } catch (error) {
    return retryRefusal(path, error);
  }
  try {
    // Checked again on what was opened: something else may have been put there since the lstat.
    requireFile(path, fstatSync(fd));
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes at `path`, refusing a link at its name with the system's ELOOP: for code that already handles
 * fs errors on its own (the dedup memory), so a link there is one more file it cannot use.
 */
export function readFileNoFollow(path: string): Buffer {
  const fd = openSync(path, NO_FOLLOW.read);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** An open that failed: ELOOP means a link arrived after the lstat; ENOENT that the file went away. */
function retryRefusal(path: string, error: unknown): null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return null;
  }
  const now = lstatSync(path, { throwIfNoEntry: false });
  if (code === 'ELOOP' && now) {
    throw refusal(path, now, 'file');
  }
  throw error;
}

// --- Writing a whole file ---

/** A temporary name beside `path` that nothing else uses. */
function temporaryName(path: string): string {
  return `${path}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Replaces the file at `path` with `data`: written to a new 0600 file beside it, synced, then renamed over
 * it, so the file is always either the old one whole or the new one whole. A link, folder or special file
 * at `path` is refused and left as it is.
 */
export function writeDataFile(path: string, data: string | Uint8Array): void {
  const temporary = temporaryName(path);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = openSync(temporary, CREATE_NEW, FILE_MODE);
  try {
    try {
      for (let written = 0; written < bytes.length;) {
        written += writeSync(fd, bytes, written);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const there = lstatSync(path, { throwIfNoEntry: false });
    if (there) {
      requireFile(path, there);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

/** {@link writeDataFile} without blocking the event loop on the sync (the mod log's rewrite). */
export async function writeDataFileAsync(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryName(path);
  const file = await open(temporary, CREATE_NEW, FILE_MODE);
  try {
    try {
      await file.writeFile(data);
      await file.datasync();
    } finally {
      await file.close();
    }
    const there = await lstat(path).catch(() => null);
    if (there) {
      requireFile(path, there);
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolderAsync(dirname(path));
}

/** {@link syncFolder} without blocking: the sandbox's world is saved this way before its answers go out. */
async function syncFolderAsync(folder: string): Promise<void> {
  if (process.platform === 'win32') {
    return;
  }
  const handle = await open(folder, constants.O_RDONLY).catch(() => null);
  if (!handle) {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // The rename is done; only its durability across a power cut is not confirmed.
  } finally {
    await handle.close();
  }
}

/** Makes a rename durable where the system allows syncing a folder (not on Windows). */
function syncFolder(folder: string): void {
  if (process.platform === 'win32') {
    return;
  }
  try {
    const fd = openSync(folder, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The rename is done; only its durability across a power cut is not confirmed.
  }
}

/**
 * Writes `data` to a file that must not exist yet (0600, never through a link): a copy kept aside, a key
 * made once. EEXIST when something is already there.
 */
export function createDataFile(path: string, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = openSync(path, CREATE_NEW, FILE_MODE);
  try {
    for (let written = 0; written < bytes.length;) {
      written += writeSync(fd, bytes, written);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// --- Appending in place ---

/**
 * Opens `path` for appending (created 0600 if missing; one others could use is made the streamer's alone).
 * Refused: a link, anything but a regular file, and a file with a second name (a hard link), which an
 * append would change under that name too.
 */
export async function openDataFileForAppend(path: string): Promise<FileHandle> {
  const seen = await lstat(path).catch(() => null);
  if (seen) {
    requireFile(path, seen);
  }
  let file: FileHandle;
  try {
    file = await open(path, NO_FOLLOW.append, FILE_MODE);
  } catch (error) {
    const now = await lstat(path).catch(() => null);
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && now) {
      throw refusal(path, now, 'file');
    }
    throw error;
  }
  try {
    const stats = await file.stat();
    requireFile(path, stats);
    if (stats.nlink > 1) {
      throw new RefusedPathError(path, 'hard-link', 'a file that also has another name (a hard link)');
    }
    if (opensToOthers(stats)) {
      // A file made by an older build or by hand keeps its mode on open: take the group's and others' bits
      // away, through the handle.
      await file.chmod(stats.mode & FILE_MODE);
    }
  } catch (error) {
    await file.close();
    throw error;
  }
  return file;
}

/**
 * The data dir's health at start: a read-only folder or a full disk is said in one plain line naming the
 * folder and what happens next, and Greenroom starts anyway
 * ([design notes](../../docs/design-notes.md#when-the-data-folder-cannot-be-written)). Nothing on disk is
 * changed to find out: `access(W_OK)` reports a read-only mount even to root, and `statfs` the free space.
 * Then what stands where a folder of Greenroom's belongs is checked, and a link there moved aside; the data
 * folder and its folders are made 0700 if others could read them
 * ([design notes](../../docs/design-notes.md#files-in-the-data-folder)).
 */
import { accessSync, chmodSync, constants, lstatSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDataFolder, FOLDER_MODE, opensToOthers, type RefusedPathError, unexpectedAt } from '../core/data-files';
import { ALERT_PROGRESS_FILE, OVERLAY_KEY_FILE, OVERLAY_MEDIA_DIR } from '../overlays/overlay-files';
import { asideReason, fsReason, moveAside } from '../secrets/damaged-file';

/**
 * Free space under which the disk counts as full at start: two of the journal's 8 MiB segments, about a
 * long stream's worth of events (electron/webhooks/journal/journal.ts).
 */
export const LOW_DISK_BYTES = 16 * 1024 * 1024;

/** The two probes, injectable so tests need no real read-only mount or full disk. */
export interface DataDirProbes {
  access(path: string, mode: number): void;
  statfs(path: string): { bavail: number | bigint; bsize: number | bigint };
}

const NODE_PROBES: DataDirProbes = { access: accessSync, statfs: statfsSync };

/** The lines to show about `dir` (none when all is well). */
export function dataDirNotices(dir: string, probes: DataDirProbes = NODE_PROBES): string[] {
  try {
    probes.access(dir, constants.W_OK);
  } catch (error) {
    return [
      `Greenroom: the data folder ${dir} cannot be written (${fsReason(error)}). Greenroom starts, but ` +
        'changed settings, a new sign-in and events from Kick are not saved; Kick sends the events again ' +
        'later, so make the folder writable (or set GREENROOM_DATA_DIR to another one) and restart.',
    ];
  }
  let free: number;
  try {
    const stats = probes.statfs(dir);
    free = Number(stats.bavail) * Number(stats.bsize);
  } catch {
    // No statfs here (an old Node or an unusual file system): nothing known, nothing to say.
    return [];
  }
  if (free >= LOW_DISK_BYTES) {
    return [];
  }
  return [
    `Greenroom: the disk holding ${dir} is full (${formatBytes(free)} free). Greenroom starts, but events from ` +
      'Kick that cannot be saved are refused, and Kick sends them again later; free some space.',
  ];
}

/** `0 bytes`, `12 kB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) {
    return `${bytes} bytes`;
  }
  if (bytes < 1_000_000) {
    return `${Math.floor(bytes / 1000)} kB`;
  }
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

// --- What stands where Greenroom's folders and files belong ---

/**
 * The data dir's folders, and the files no module of their own checks when it opens them, with what each
 * holds in the streamer's words. Each must be a real folder or plain file in the data dir
 * ([design notes](../../docs/design-notes.md#files-in-the-data-folder)): the journal, the dedup memory
 * and the overlay media are read and written file by file below these folders, so a link standing for one
 * would take every one of those reads and writes to another place. (`journal` and `dedup` are named in
 * electron/webhooks/webhook-service.ts.)
 */
export const DATA_DIR_ENTRIES: readonly { name: string; kind: 'file' | 'folder'; holds: string }[] = [
  { name: 'journal', kind: 'folder', holds: 'the events received from Kick (chat and the feed come back from it)' },
  { name: 'dedup', kind: 'folder', holds: 'the ids of deliveries already received' },
  { name: OVERLAY_MEDIA_DIR, kind: 'folder', holds: 'the alert images and sounds' },
  { name: OVERLAY_KEY_FILE, kind: 'file', holds: 'the key in the overlay URLs' },
  { name: ALERT_PROGRESS_FILE, kind: 'file', holds: 'the last alert shown' },
];

/**
 * Moves aside anything standing where one of {@link DATA_DIR_ENTRIES} belongs that is not what belongs
 * there (a link, above all, or a file for a folder): renaming a link moves the link, never what it points
 * at. One line each; Greenroom then starts with a new, empty one.
 */
export function setAsideMisplacedEntries(dir: string, nowMs: number): string[] {
  const lines: string[] = [];
  for (const { name, kind, holds } of DATA_DIR_ENTRIES) {
    const path = join(dir, name);
    let refused: RefusedPathError | null;
    try {
      refused = unexpectedAt(path, kind);
    } catch {
      // Cannot even be looked at (permission): whatever opens it says so.
      continue;
    }
    if (!refused) {
      continue;
    }
    const what = `Greenroom: the ${kind} ${path}, which holds ${holds}, ${asideReason(refused)}`;
    try {
      lines.push(`${what}; it was moved to ${moveAside(path, nowMs)} and Greenroom starts with a new, empty one.`);
    } catch (error) {
      lines.push(`${what}, and it could not be moved aside (${fsReason(error)}); Greenroom starts without it.`);
    }
  }
  return lines;
}

/**
 * Takes away what other accounts may do in the data folder and in its folders (journal, dedup memory,
 * overlay media), made by an older build or by hand with the usual 0755. The data folder itself may be a
 * link (a streamer who keeps it on another disk), so it is followed; its folders are not. A folder that
 * cannot be changed is one line.
 */
export function tightenDataFolders(dir: string): string[] {
  const lines: string[] = [];
  const tighten = (path: string, change: () => void): void => {
    try {
      change();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EROFS') {
        // A read-only folder is already one line (dataDirNotices), and nothing can be written there either.
        return;
      }
      lines.push(
        `Greenroom: the folder ${path} may be readable by other accounts on this computer, and Greenroom could ` +
          `not change that (${fsReason(error)}); Greenroom starts, but make it readable by you alone.`,
      );
    }
  };
  tighten(dir, () => {
    const seen = statSync(dir);
    if (opensToOthers(seen)) {
      // The owner's own bits stay: a data folder made read-only on purpose is not made writable.
      chmodSync(dir, seen.mode & FOLDER_MODE);
    }
  });
  for (const { name, kind } of DATA_DIR_ENTRIES) {
    const path = join(dir, name);
    // One missing is left to what makes it (0700); one of the wrong kind was just moved aside.
    if (kind === 'folder' && lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) {
      tighten(path, () => ensureDataFolder(path));
    }
  }
  return lines;
}

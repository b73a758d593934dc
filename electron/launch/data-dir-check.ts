/**
 * The data dir's health at start: a read-only folder or a full disk is said in one plain line naming the
 * folder and what happens next, and Greenroom starts anyway (issue 9, "Start-up faults"). Nothing on disk is
 * changed to find out: `access(W_OK)` reports a read-only mount even to root, and `statfs` the free space.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { fsReason } from '../secrets/damaged-file';

/**
 * Free space under which the disk counts as full at start: two of the journal's 8 MiB segments, about a
 * long stream's worth of events (electron/webhooks/journal.ts).
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

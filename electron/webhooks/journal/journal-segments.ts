/**
 * The journal's segment files: listing, opening for append, repairing a torn tail, and reading one back.
 * A segment that cannot be read at all (permissions, an I/O error, a directory where a file should be) or
 * holds nothing readable is moved aside with one plain line naming it, and the rest of the journal is
 * replayed: one damaged file must never stop Greenroom from starting, and moving it (never deleting it)
 * keeps whatever it still holds for the streamer or for us.
 */
import { open, readdir, readFile, rename, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { NO_FOLLOW } from '../../core/data-files';
import { parseSegmentName, readSegment, scanSegment, segmentName } from './journal-format';
import type { JournalRecord } from '../events/types';

const FILE_MODE = 0o600;

/** Segment numbers in `dir`, ascending. */
export async function listSegments(dir: string): Promise<number[]> {
  const seqs = (await readdir(dir)).map(parseSegmentName).filter((seq) => seq !== null);
  return seqs.sort((a, b) => a - b);
}

/** Opens a segment for appending (created 0600 if missing). */
export async function openSegment(path: string): Promise<FileHandle> {
  // O_APPEND: every write lands at the end, whatever happened to the file before.
  // A link in the journal folder is not followed: ELOOP, and the segment is moved aside like a damaged one.
  const fh = await open(path, NO_FOLLOW.append, FILE_MODE);
  try {
    // The mode only applies at creation; tighten a file an older build or a user left readable.
    await fh.chmod(FILE_MODE);
    return fh;
  } catch (error) {
    await fh.close();
    throw error;
  }
}

/** The segment appends go to, open, and its size after repair. */
export interface AppendSegment {
  fh: FileHandle;
  seq: number;
  size: number;
}

/**
 * Opens the newest segment for appending, cutting off a torn last line a crash left. If it cannot be
 * opened or read, or holds nothing but damage, it is moved aside and a new segment `seq + 1` begun.
 */
export async function openAppendSegment(
  dir: string,
  seq: number,
  sync: boolean,
  log: (line: string) => void,
): Promise<AppendSegment> {
  const path = join(dir, segmentName(seq));
  let fh: FileHandle | null = null;
  let why: string;
  try {
    fh = await openSegment(path);
    const bytes = await readFile(path, { flag: NO_FOLLOW.read });
    // Only an unterminated tail (a write a crash cut short) is repaired; whole lines of nothing but damage
    // mean the file is not a journal segment at all.
    const whole = scanSegment(bytes).filter((line) => line.terminated);
    const first = whole[0]?.result;
    if (!first || whole.some((line) => line.result.ok)) {
      return { fh, seq, size: await repairTail(fh, path, bytes, sync, log) };
    }
    why = `nothing in it is a journal record (${first.ok ? '' : first.error} at byte 0)`;
  } catch (error) {
    why = `could not open it (${describe(error)})`;
  }
  await fh?.close().catch(() => undefined);
  await moveAside(path, why, log);
  return { fh: await openSegment(join(dir, segmentName(seq + 1))), seq: seq + 1, size: 0 };
}

/** Cuts a torn or corrupt last line off the newest segment; returns the resulting size. */
async function repairTail(
  fh: FileHandle,
  path: string,
  bytes: Buffer,
  sync: boolean,
  log: (line: string) => void,
): Promise<number> {
  const last = scanSegment(bytes).at(-1);
  if (!last || last.result.ok) {
    return bytes.length;
  }
  await fh.truncate(last.start);
  if (sync) {
    await fh.datasync();
  }
  log(
    `journal: truncated a torn record (${bytes.length - last.start} bytes, ${last.result.error}) at the end of ${basename(path)}`,
  );
  return last.start;
}

/**
 * The intact records of segment `seq`, or null when the file is gone (rotated away while reading) or was
 * moved aside because nothing in it could be read. Damaged lines are reported in one line per segment.
 */
export async function readSegmentFile(
  dir: string,
  seq: number,
  live: boolean,
  log: (line: string) => void,
): Promise<JournalRecord[] | null> {
  const path = join(dir, segmentName(seq));
  let bytes: Buffer;
  try {
    bytes = await readFile(path, { flag: NO_FOLLOW.read });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return null;
    }
    await moveAside(path, `could not read it (${describe(error)})`, log);
    return null;
  }
  const { records, skipped } = readSegment(bytes, live);
  if (skipped.length > 0 && records.length === 0 && !live) {
    await moveAside(path, `nothing in it is a journal record (${skipped[0]!.reason} at byte 0)`, log);
    return null;
  }
  if (skipped.length > 0) {
    const first = skipped[0]!;
    const more = skipped.length > 1 ? ` and ${skipped.length - 1} more` : '';
    log(
      `journal: skipped a corrupt record in ${basename(path)} at byte ${first.start} (${first.reason})${more}; replayed the other ${records.length}`,
    );
  }
  return records;
}

/**
 * Renames a damaged segment to `<name>.damaged` (or `.damaged-2`, …) so it is no longer a segment, and says
 * so in one line. If even the rename fails, the file stays and is skipped; the line says that instead.
 */
export async function moveAside(path: string, why: string, log: (line: string) => void): Promise<void> {
  let target = `${path}.damaged`;
  for (let n = 2; await exists(target); n++) {
    target = `${path}.damaged-${n}`;
  }
  try {
    await rename(path, target);
    log(`journal: ${path}: ${why}; moved it aside to ${basename(target)} and went on with the rest of the journal`);
  } catch (error) {
    log(`journal: ${path}: ${why}; skipped it (could not move it aside: ${describe(error)}) and went on`);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The durable, append-only log of accepted webhook deliveries ([design notes](../../../docs/design-notes.md#data-that-must-survive), "Data that must survive"). The
 * receiver appends every accepted delivery here and answers Kick's 200 only after `append` resolves, so an
 * acknowledged event is never lost: Kick will not resend it, and on start the app rebuilds the feed and the
 * dedup memory from this log (`replayJournal`).
 *
 * Durability policy (`fsync`):
 * - `'batch'` (default), group commit: appends that arrive while a write is in flight wait and are then
 *   written together with ONE `write` and ONE `fdatasync`; every `append` resolves only after the
 *   `fdatasync` that covers its bytes. An acknowledged event survives a power cut, and a chat storm costs
 *   one fsync per batch instead of one per message (the batch grows with the load, so throughput scales).
 * - `'always'`: one `write` + one `fdatasync` per append. Same guarantee, no batching (benchmark baseline).
 * - `'never'`: no fsync at all; survives a process crash but not a power cut. Tests and benchmarks only.
 *
 * Disk use is bounded: a new segment (`journal-000001.log`, `journal-000002.log`, …) starts once the current
 * one reaches `maxSegmentBytes`, and the oldest segments beyond `maxSegments` are deleted. Files are created
 * with mode 0600 because payloads carry usernames. Record framing: see `journal-format.ts`.
 *
 * Crash recovery: on open, a torn last line of the newest segment (no newline, CRC mismatch, bad JSON) is
 * truncated away so the next append starts on a clean line; a corrupt line elsewhere is skipped and logged.
 * A segment that cannot be read at all, or holds only damage, is moved aside with one line naming it, and
 * the rest is replayed (`journal-segments.ts`): one bad file never stops start-up. A data dir that cannot be
 * written gives a journal that replays and refuses appends (`journal-read-only.ts`).
 */
import { constants } from 'node:fs';
import { access, mkdir, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeRecord, segmentName } from './journal-format';
import { isUnwritable, openReadOnlyJournal } from './journal-read-only';
import { describe, listSegments, openAppendSegment, openSegment, readSegmentFile } from './journal-segments';
import type { EventJournal, FileJournal, JournalRecord } from '../events/types';

export type { FileJournal, JournalStats } from '../events/types';

/** How hard `append` works to make a record survive a power cut (see the module comment). */
export type FsyncPolicy = 'always' | 'batch' | 'never';

export interface FileJournalDeps {
  /** Directory of the segment files (inside the app's data dir); created (0700) if missing. */
  dir: string;
  /** Start a new segment once the current one reaches this size. Default 8 MiB. */
  maxSegmentBytes?: number;
  /** Keep at most this many segments; the oldest are deleted. Default 8 (so ≈ 64 MiB at most). */
  maxSegments?: number;
  fsync?: FsyncPolicy;
  log?: (line: string) => void;
}

interface Pending {
  line: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Opens (or creates) the journal in `dir`, repairing a torn tail left by a crash. */
export async function createFileJournal(options: FileJournalDeps): Promise<FileJournal> {
  const { dir, maxSegmentBytes = 8 * 1024 * 1024, maxSegments = 8, fsync = 'batch' } = options;
  const log = options.log ?? (() => undefined);
  for (const [name, value] of Object.entries({ maxSegmentBytes, maxSegments })) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`${name} must be an integer >= 1`);
    }
  }
  const pathOf = (seq: number): string => join(dir, segmentName(seq));

  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // A read-only mount reports itself here even to root; without this, opening the segment would fail,
    // the segment be "moved aside" (failing too) and start-up stop on the next segment's EROFS.
    await access(dir, constants.W_OK);
  } catch (error) {
    if (isUnwritable(error)) {
      return openReadOnlyJournal(dir, error, log);
    }
    throw error;
  }
  const seqs = await listSegments(dir);
  const newest = await openAppendSegment(dir, seqs.at(-1) ?? 1, fsync !== 'never', log);
  let { fh, seq, size } = newest;
  if (seq !== (seqs.at(-1) ?? seq)) {
    seqs.pop(); // the newest segment was moved aside; appends go to a new one
  }
  if (seqs.at(-1) !== seq) {
    seqs.push(seq);
  }
  if (fsync !== 'never') {
    await syncDir(dir);
  }

  const pending: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let closing: Promise<void> | null = null;
  /** Set when a failed write may have left a fragment we could not cut off; the next write ends it first. */
  let dirtyTail = false;
  const counters = { appends: 0, batches: 0, syncs: 0 };

  // --- Group commit ---

  async function flushLoop(): Promise<void> {
    // Yield one macrotask so appends issued in the same burst (and their awaiting continuations) join the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (pending.length > 0) {
        // Rotate before writing rather than after, so no append waits on a rotation it did not need.
        if (size >= maxSegmentBytes) {
          await rotate();
        }
        const batch = fsync === 'always' ? pending.splice(0, 1) : pending.splice(0);
        await writeBatch(batch);
      }
    } finally {
      flushing = null;
    }
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    const lines = batch.map((p) => p.line);
    const parts = dirtyTail ? [Buffer.from('\n'), ...lines] : lines;
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const before = size;
    try {
      await writeFully(fh, bytes);
      size += bytes.length;
      if (fsync !== 'never') {
        await fh.datasync();
        counters.syncs++;
      }
      dirtyTail = false;
    } catch (cause) {
      await undoWrite(before);
      const error = new Error(`journal write failed: ${describe(cause)}`, { cause });
      batch.forEach((p) => p.reject(error));
      return;
    }
    counters.batches++;
    counters.appends += batch.length;
    batch.forEach((p) => p.resolve());
  }

  /** After a failed write or sync, cut the file back so half a batch never sits before the next record. */
  async function undoWrite(before: number): Promise<void> {
    try {
      await fh.truncate(before);
      size = before;
    } catch (cause) {
      dirtyTail = true;
      size = await fh.stat().then(
        (s) => s.size,
        () => before,
      );
      log(`journal: could not truncate ${segmentName(seq)} after a failed write: ${describe(cause)}`);
    }
  }

  async function rotate(): Promise<void> {
    try {
      const next = seq + 1;
      const nextFh = await openSegment(pathOf(next));
      // The new file's directory entry must be durable too, or a power cut could lose the whole segment.
      if (fsync !== 'never') {
        await syncDir(dir);
      }
      await fh.close();
      fh = nextFh;
      seq = next;
      size = 0;
      seqs.push(next);
      while (seqs.length > maxSegments) {
        await rm(pathOf(seqs.shift()!), { force: true });
      }
    } catch (cause) {
      // Keep appending to the current segment; the next batch tries again.
      log(`journal: rotation after ${segmentName(seq)} failed: ${describe(cause)}`);
    }
  }

  async function drain(): Promise<void> {
    while (flushing) {
      await flushing;
    }
  }

  // --- EventJournal ---

  return {
    append(record: JournalRecord): Promise<void> {
      if (closing) {
        return Promise.reject(new Error('journal is closed'));
      }
      const line = Buffer.from(encodeRecord(record), 'utf8');
      return new Promise<void>((resolve, reject) => {
        pending.push({ line, resolve, reject });
        flushing ??= flushLoop();
      });
    },

    async readAll(): Promise<JournalRecord[]> {
      await drain();
      const records: JournalRecord[] = [];
      for (const s of [...seqs]) {
        const contents = await readSegmentFile(dir, s, s === seq, log);
        if (contents === null && s !== seq) {
          // Rotated away while we read, or moved aside as damaged: either way no longer a segment.
          seqs.splice(seqs.indexOf(s), 1);
        }
        records.push(...(contents ?? []));
      }
      return records;
    },

    close(): Promise<void> {
      closing ??= (async () => {
        await drain();
        await fh.close();
      })();
      return closing;
    },

    stats: () => ({ ...counters, segments: seqs.length }),
  };
}

// --- Replay ---

/** Where replayed records go: the dedup memory and whatever rebuilds the feed. */
export interface ReplayTarget {
  dedup?: { remember(record: JournalRecord): void };
  onRecord(record: JournalRecord): void;
  log?: (line: string) => void;
}

/**
 * Feeds every journaled record, oldest first, to the dedup memory and then to `onRecord`; used once on start.
 * A consumer that throws on one record is logged and the replay goes on. Returns the number of records.
 */
export async function replayJournal(journal: Pick<EventJournal, 'readAll'>, target: ReplayTarget): Promise<number> {
  const records = await journal.readAll();
  for (const record of records) {
    try {
      target.dedup?.remember(record);
      target.onRecord(record);
    } catch (cause) {
      target.log?.(`journal: replay of ${record.messageId} failed: ${describe(cause)}`);
    }
  }
  return records.length;
}

// --- Files ---

async function writeFully(fh: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await fh.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

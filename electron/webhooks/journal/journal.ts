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
 * A record no answer waits on (`append(record, 'soon')`: a line from the live socket) waits up to `soonMs` for
 * company before its batch is written, unless a `'now'` append or a write in flight takes it first. In a raid the
 * socket's lines come one at a time, a few ms apart, so without the wait each one cost a `write` and an
 * `fdatasync` of its own ([decisions](../../../docs/decisions.md#socket-lines-wait-for-company)).
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
import { nodeTimer, type SetTimer, type Timer } from '../../core/scheduler';
import type { AppendWhen, EventJournal, FileJournal, JournalRecord } from '../events/types';

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
  /** How long a `'soon'` append waits for company before it is written. Default {@link SOON_MS}. */
  soonMs?: number;
  /** Plans that wait (electron/core/scheduler.ts); Node's timer by default, so a waiting record is never left. */
  setTimer?: SetTimer;
  log?: (line: string) => void;
}

/**
 * The longest a `'soon'` record waits. A raid's 400 lines a second then share about 50 syncs a second instead of
 * taking 400; the webhook copy of a socket line gets its 200 up to this much later, far inside Kick's timeout.
 */
export const SOON_MS = 20;

interface Pending {
  line: Buffer;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Opens (or creates) the journal in `dir`, repairing a torn tail left by a crash. */
export async function createFileJournal(options: FileJournalDeps): Promise<FileJournal> {
  const { dir, maxSegmentBytes = 8 * 1024 * 1024, maxSegments = 8, fsync = 'batch', soonMs = SOON_MS } = options;
  const log = options.log ?? (() => undefined);
  const setTimer = options.setTimer ?? nodeTimer;
  for (const [name, value] of Object.entries({ maxSegmentBytes, maxSegments })) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`${name} must be an integer >= 1`);
    }
  }
  if (!Number.isFinite(soonMs) || soonMs < 0) {
    throw new RangeError('soonMs must be a number >= 0');
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
  /** Set while only `'soon'` records wait: the batch is written when it fires, or sooner if a `'now'` comes. */
  let soonTimer: Timer | null = null;
  let closing: Promise<void> | null = null;
  /** Set when a failed write may have left a fragment we could not cut off; the next write ends it first. */
  let dirtyTail = false;
  const counters = { appends: 0, batches: 0, syncs: 0 };

  // --- Group commit ---

  function flushNow(): void {
    soonTimer?.cancel();
    soonTimer = null;
    flushing ??= flushLoop();
  }

  /** A write in flight takes every waiting record when it is done, so a timer is needed only when none is. */
  function flushFor(when: AppendWhen): void {
    if (when === 'now' || flushing) {
      flushNow();
    } else {
      soonTimer ??= setTimer(flushNow, soonMs);
    }
  }

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
    if (soonTimer) {
      flushNow();
    }
    while (flushing) {
      await flushing;
    }
  }

  // --- EventJournal ---

  return {
    append(record: JournalRecord, when: AppendWhen = 'now'): Promise<void> {
      if (closing) {
        return Promise.reject(new Error('journal is closed'));
      }
      const line = Buffer.from(encodeRecord(record), 'utf8');
      return new Promise<void>((resolve, reject) => {
        pending.push({ line, resolve, reject });
        flushFor(when);
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

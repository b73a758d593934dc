/**
 * The message ids Greenroom has accepted, remembered for the whole retention (48 h by default, covering
 * Kick's day of retries; see `WIRE_ASSUMPTIONS.webhookRetryHorizonSeconds`) however many deliveries come
 * in between, so a redelivery is always recognised and never journaled or shown twice.
 *
 * Generations by time: new ids go to the open generation (a hash table, {@link KeyTable}) and to an
 * append-only log beside it; at {@link DEFAULT_RUN_MAX_IDS} ids or {@link DEFAULT_RUN_MAX_SPAN_MS} of age it
 * is sealed into a sorted run file ({@link IdRun}) and the log starts afresh. Runs older than the retention
 * are deleted. When the runs in memory pass the memory cap, the oldest keep only a sparse index and are
 * looked up on disk, one block read each, exactly.
 *
 * Memory bound: at most `maxMemoryBytes` (default {@link DEFAULT_MAX_MEMORY_BYTES}, 32 MiB) for the open
 * table and the runs kept in memory — 16 bytes per id, so about two million ids before anything spills —
 * plus 16 bytes per 256 spilled ids for their indexes (1/16 byte per id) and a couple of hundred bytes per
 * run. Disk: 16 bytes per id within the retention, plus 24 per id in the open log. Nothing here is needed
 * for correctness of what is kept (the journal is); it only decides what counts as already seen.
 *
 * The open log is written once per event-loop turn, not once per id: a `write` per delivery was a syscall
 * on the main thread for every chat line in a raid. Ids of the last turn before a crash are
 * not lost either: their deliveries are in the journal, which start-up replays into this memory.
 */
import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { NO_FOLLOW, readFileNoFollow } from '../../core/data-files';
import { KEY_BYTES, KEY_WORDS, sortKeysInPlace, writeIdKey } from './id-key';
import { IdRun } from './id-run';
import { KeyTable } from './id-table';

/** Default memory cap (see the module comment). */
export const DEFAULT_MAX_MEMORY_BYTES = 32 * 1024 * 1024;
/** A run holds at most this many ids (1 MiB of keys), so sealing one is a short pause. */
export const DEFAULT_RUN_MAX_IDS = 65_536;
/** A run spans at most an hour, so runs expire in hour steps and a quiet channel's ids still get sealed. */
export const DEFAULT_RUN_MAX_SPAN_MS = 3_600_000;

export interface IdMemoryDeps {
  /** Where the runs and the open log live (the data dir's `dedup/`); null keeps everything in memory (tests). */
  dir: string | null;
  /** How long an id is remembered at least. */
  retentionMs: number;
  maxMemoryBytes?: number;
  runMaxIds?: number;
  runMaxSpanMs?: number;
  log?: (line: string) => void;
}

/** Sizes, for health, tests and the benchmark. */
export interface IdMemoryStats {
  ids: number;
  runs: number;
  spilledRuns: number;
  memoryBytes: number;
}

const OPEN_LOG = 'open.log';
const LOG_RECORD_BYTES = KEY_BYTES + 8;
const RUN_NAME = /^run-(\d{8,})\.ids$/;

/** The id memory; opening it loads what an earlier run of the app left in `dir`. */
export class IdMemory {
  readonly #dir: string | null;
  readonly #retentionMs: number;
  readonly #maxMemoryBytes: number;
  readonly #runMaxIds: number;
  readonly #runMaxSpanMs: number;
  readonly #log: (line: string) => void;
  readonly #table = new KeyTable();
  readonly #runs: IdRun[] = [];
  readonly #key = new Uint32Array(KEY_WORDS);
  readonly #record = Buffer.alloc(LOG_RECORD_BYTES);
  #openFirstMs = Infinity;
  #openLastMs = -Infinity;
  #nextSeq = 1;
  #logFd: number | null = null;
  /** Log records not yet written, and whether a flush is planned for the end of this turn. */
  #pending = Buffer.alloc(LOG_RECORD_BYTES * 2048);
  #pendingBytes = 0;
  #flushPlanned: NodeJS.Immediate | null = null;

  constructor(options: IdMemoryDeps) {
    this.#dir = options.dir;
    this.#retentionMs = options.retentionMs;
    this.#maxMemoryBytes = options.maxMemoryBytes ?? DEFAULT_MAX_MEMORY_BYTES;
    this.#runMaxIds = options.runMaxIds ?? DEFAULT_RUN_MAX_IDS;
    this.#runMaxSpanMs = options.runMaxSpanMs ?? DEFAULT_RUN_MAX_SPAN_MS;
    this.#log = options.log ?? (() => undefined);
    if (this.#dir !== null) {
      this.#load(this.#dir);
    }
  }

  /** Whether `messageId` was added (and not yet expired). */
  has(messageId: string): boolean {
    writeIdKey(messageId, this.#key, 0);
    return this.#hasKey(this.#key);
  }

  /** Remembers `messageId`, seen at `atMs`; false when it already was. */
  add(messageId: string, atMs: number): boolean {
    writeIdKey(messageId, this.#key, 0);
    if (this.#hasKey(this.#key)) {
      return false;
    }
    if (
      this.#table.count >= this.#runMaxIds ||
      (this.#table.count > 0 && atMs - this.#openFirstMs >= this.#runMaxSpanMs)
    ) {
      this.seal(atMs);
    }
    this.#table.add(this.#key, 0);
    this.#openFirstMs = Math.min(this.#openFirstMs, atMs);
    this.#openLastMs = Math.max(this.#openLastMs, atMs);
    if (this.#logFd !== null) {
      this.#writeKey(this.#record);
      this.#record.writeDoubleBE(atMs, KEY_BYTES);
      this.#record.copy(this.#pending, this.#pendingBytes);
      this.#pendingBytes += LOG_RECORD_BYTES;
      if (this.#pendingBytes === this.#pending.length) {
        this.flush();
      } else {
        this.#flushPlanned ??= setImmediate(() => this.flush());
      }
    }
    return true;
  }

  /** Writes the ids added this turn to the open log (done by itself at the end of the turn). */
  flush(): void {
    if (this.#flushPlanned !== null) {
      clearImmediate(this.#flushPlanned);
      this.#flushPlanned = null;
    }
    if (this.#logFd !== null && this.#pendingBytes > 0) {
      let at = 0;
      while (at < this.#pendingBytes) {
        at += writeSync(this.#logFd, this.#pending, at, this.#pendingBytes - at);
      }
    }
    this.#pendingBytes = 0;
  }

  /** Seals the open generation into a run, then applies the memory cap and the retention at `nowMs`. */
  seal(nowMs: number): void {
    if (this.#table.count > 0) {
      const path = this.#dir === null ? null : join(this.#dir, `run-${String(this.#nextSeq++).padStart(8, '0')}.ids`);
      const keys = this.#table.keys();
      sortKeysInPlace(keys, this.#table.count);
      this.#runs.push(IdRun.create(path, keys, this.#openFirstMs, this.#openLastMs, this.#log));
      this.#table.clear();
      this.#openFirstMs = Infinity;
      this.#openLastMs = -Infinity;
      if (this.#logFd !== null) {
        // The run file now holds every id of this generation, unwritten ones included.
        this.#pendingBytes = 0;
        ftruncateSync(this.#logFd, 0);
      }
    }
    this.#expire(nowMs);
    this.#applyCap();
  }

  stats(): IdMemoryStats {
    const inRuns = this.#runs.reduce((sum, run) => sum + run.count, 0);
    return {
      ids: this.#table.count + inRuns,
      runs: this.#runs.length,
      spilledRuns: this.#runs.filter((run) => !run.inMemory).length,
      memoryBytes: this.#table.bytes + this.#runs.reduce((sum, run) => sum + run.memoryBytes, 0),
    };
  }

  /** Closes the open log (its ids are read back from it at the next start). */
  close(): void {
    this.flush();
    if (this.#logFd !== null) {
      closeSync(this.#logFd);
      this.#logFd = null;
    }
  }

  #hasKey(key: Uint32Array): boolean {
    if (this.#table.has(key, 0)) {
      return true;
    }
    for (let i = this.#runs.length - 1; i >= 0; i--) {
      if (this.#runs[i]!.has(key, 0)) {
        return true;
      }
    }
    return false;
  }

  /** The key words in the log record are big-endian, as in run files, whatever the machine's byte order. */
  #writeKey(record: Buffer): void {
    for (let w = 0; w < KEY_WORDS; w++) {
      record.writeUInt32BE(this.#key[w]!, w * 4);
    }
  }

  #expire(nowMs: number): void {
    const oldest = nowMs - this.#retentionMs;
    while (this.#runs.length > 0 && this.#runs[0]!.lastMs < oldest) {
      this.#runs.shift()!.delete();
    }
  }

  /** Spills the oldest runs still in memory until the cap holds (or nothing more can spill). */
  #applyCap(): void {
    let bytes = this.stats().memoryBytes;
    for (const run of this.#runs) {
      if (bytes <= this.#maxMemoryBytes) {
        return;
      }
      if (run.inMemory && run.path !== null) {
        const before = run.memoryBytes;
        run.spill();
        bytes -= before - run.memoryBytes;
      }
    }
  }

  // --- Start-up ---

  /** Opens the runs (newest loaded into memory while the cap allows) and reads the open log back. */
  #load(dir: string): void {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const names = readdirSync(dir)
      .map((name) => ({ name, seq: Number(RUN_NAME.exec(name)?.[1] ?? NaN) }))
      .filter((entry) => Number.isFinite(entry.seq))
      .sort((a, b) => a.seq - b.seq);
    for (const { name, seq } of names) {
      const run = IdRun.open(join(dir, name), this.#log);
      if (run) {
        this.#runs.push(run);
      }
      this.#nextSeq = Math.max(this.#nextSeq, seq + 1);
    }
    let budget = this.#maxMemoryBytes;
    for (let i = this.#runs.length - 1; i >= 0 && budget >= this.#runs[i]!.count * KEY_BYTES; i--) {
      if (this.#runs[i]!.load()) {
        budget -= this.#runs[i]!.memoryBytes;
      }
    }
    const logPath = join(dir, OPEN_LOG);
    let bytes: Buffer;
    try {
      bytes = readFileNoFollow(logPath);
    } catch {
      bytes = Buffer.alloc(0);
    }
    // Whole records only: a torn last one (a crash mid-write) is dropped; the journal still has that id.
    for (let at = 0; at + LOG_RECORD_BYTES <= bytes.length; at += LOG_RECORD_BYTES) {
      for (let w = 0; w < KEY_WORDS; w++) {
        this.#key[w] = bytes.readUInt32BE(at + w * 4);
      }
      const atMs = bytes.readDoubleBE(at + KEY_BYTES);
      if (!this.#hasKey(this.#key) && this.#table.add(this.#key, 0)) {
        this.#openFirstMs = Math.min(this.#openFirstMs, atMs);
        this.#openLastMs = Math.max(this.#openLastMs, atMs);
      }
    }
    this.#logFd = openSync(logPath, NO_FOLLOW.append, 0o600);
    // Cut a torn last record off, so the next one starts on a record boundary.
    ftruncateSync(this.#logFd, bytes.length - (bytes.length % LOG_RECORD_BYTES));
  }
}

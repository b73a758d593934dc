/**
 * One sealed generation of the id memory: the sorted keys of the ids seen in one span of time, in a file in
 * the data dir and, while the memory cap allows, in memory too. A spilled run keeps only a sparse index in
 * memory (every {@link BLOCK_KEYS}-th key) and answers a lookup by reading the one 4 KiB block that can hold
 * the key: exact, never a guess, so an id it holds is never taken for new and a new id never for a
 * duplicate. Its smallest and largest keys let a lookup skip it without any read when the key is out of
 * range, which for ULIDs (time-ordered) is almost always.
 *
 * Written to a temporary name, synced, then renamed, so a crash leaves either the whole file or none; a
 * damaged one is found by its size or CRC, logged and ignored. The format is in `id-run-file.ts`.
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import { NO_FOLLOW, readFileNoFollow } from '../../core/data-files';
import { crc32 } from 'node:zlib';
import { compareKeys, KEY_BYTES, KEY_WORDS, searchKeys } from './id-key';
import {
  decodeHeader,
  encodeHeader,
  fromBigEndian,
  HEADER_BYTES,
  type RunHeader,
  writeFully,
  writeKeys,
} from './id-run-file';

/** Keys per block read from a spilled run (4 KiB). */
export const BLOCK_KEYS = 256;

/** A sorted run of keys, backed by a file (or, with no data dir, by memory only). */
export class IdRun {
  readonly path: string | null;
  readonly count: number;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly #crc: number;
  readonly #min = new Uint32Array(KEY_WORDS);
  readonly #max = new Uint32Array(KEY_WORDS);
  #keys: Uint32Array | null;
  #index: Uint32Array | null = null;
  #damaged = false;
  readonly #log: (line: string) => void;

  private constructor(
    path: string | null,
    header: RunHeader,
    keys: Uint32Array | null,
    bounds: Uint32Array,
    log: (line: string) => void,
  ) {
    this.path = path;
    this.count = header.count;
    this.firstMs = header.firstMs;
    this.lastMs = header.lastMs;
    this.#crc = header.crc;
    this.#keys = keys;
    this.#min.set(bounds.subarray(0, KEY_WORDS));
    this.#max.set(bounds.subarray(KEY_WORDS, 2 * KEY_WORDS));
    this.#log = log;
  }

  /** Writes sorted, non-empty `keys` to `path` (null: memory only) and returns the run, in memory. */
  static create(
    path: string | null,
    keys: Uint32Array,
    firstMs: number,
    lastMs: number,
    log: (line: string) => void,
  ): IdRun {
    const count = keys.length / KEY_WORDS;
    if (path === null) {
      // No file, so nothing is ever read back to check against a checksum (`load` returns early).
      return new IdRun(null, { count, crc: 0, firstMs, lastMs }, keys, boundsOf(keys, count), log);
    }
    const temporary = `${path}.tmp`;
    const fd = openSync(temporary, NO_FOLLOW.replace, 0o600);
    let header: RunHeader;
    try {
      header = { count, crc: writeKeys(fd, keys), firstMs, lastMs };
      writeFully(fd, encodeHeader(header), 0);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
    return new IdRun(path, header, keys, boundsOf(keys, count), log);
  }

  /** Opens a run file written earlier, keys not loaded; null (logged) when it is not a whole run file. */
  static open(path: string, log: (line: string) => void): IdRun | null {
    let fd: number | null = null;
    try {
      fd = openSync(path, NO_FOLLOW.read);
      const head = Buffer.alloc(HEADER_BYTES);
      const header = readSync(fd, head, 0, HEADER_BYTES, 0) === HEADER_BYTES ? decodeHeader(head) : null;
      const size = header ? HEADER_BYTES + header.count * KEY_BYTES : -1;
      const last = Buffer.alloc(KEY_BYTES * 2);
      if (
        !header ||
        header.count < 1 ||
        readSync(fd, last, 0, KEY_BYTES, HEADER_BYTES) !== KEY_BYTES ||
        readSync(fd, last, KEY_BYTES, KEY_BYTES, size - KEY_BYTES) !== KEY_BYTES ||
        readSync(fd, Buffer.alloc(1), 0, 1, size) !== 0
      ) {
        log(`webhooks: dedup: ignoring ${basename(path)}, which is not a whole id run`);
        return null;
      }
      return new IdRun(path, header, null, fromBigEndian(last), log);
    } catch (error) {
      log(`webhooks: dedup: could not read ${basename(path)} (${String(error)}); ignoring it`);
      return null;
    } finally {
      if (fd !== null) {
        closeSync(fd);
      }
    }
  }

  /** Bytes this run holds in memory (its keys, or its sparse index once spilled). */
  get memoryBytes(): number {
    return (this.#keys?.byteLength ?? 0) + (this.#index?.byteLength ?? 0);
  }

  get inMemory(): boolean {
    return this.#keys !== null;
  }

  /** Whether the run holds the key at word `at` of `key`. */
  has(key: Uint32Array, at: number): boolean {
    if (this.#damaged || compareKeys(key, at, this.#min, 0) < 0 || compareKeys(key, at, this.#max, 0) > 0) {
      return false;
    }
    if (this.#keys) {
      return searchKeys(this.#keys, this.count, key, at) >= 0;
    }
    const index = this.#ensureIndex();
    if (!index) {
      return false;
    }
    // The last block whose first key is <= the key.
    const blocks = index.length / KEY_WORDS;
    let lo = 0;
    let hi = blocks - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (compareKeys(index, mid * KEY_WORDS, key, at) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    const block = this.#readBlock(lo);
    return block !== null && searchKeys(block, block.length / KEY_WORDS, key, at) >= 0;
  }

  /** Reads the keys into memory (verifying the CRC); false, and the run marked damaged, when it fails. */
  load(): boolean {
    if (this.#keys || this.path === null) {
      return this.#keys !== null;
    }
    try {
      const bytes = readFileNoFollow(this.path).subarray(HEADER_BYTES);
      if (bytes.length !== this.count * KEY_BYTES || crc32(bytes) !== this.#crc) {
        throw new Error('size or checksum does not match its header');
      }
      this.#keys = fromBigEndian(bytes);
      this.#index = null;
      return true;
    } catch (error) {
      this.#damaged = true;
      this.#log(`webhooks: dedup: ignoring ${basename(this.path)} (${errorText(error)})`);
      return false;
    }
  }

  /** Drops the keys from memory, keeping the sparse index (only a run with a file can spill). */
  spill(): void {
    if (this.#keys && this.path !== null) {
      this.#index = sparseIndex(this.#keys, this.count);
      this.#keys = null;
    }
  }

  /** Removes the file (expired runs). */
  delete(): void {
    if (this.path !== null) {
      rmSync(this.path, { force: true });
    }
  }

  #ensureIndex(): Uint32Array | null {
    if (!this.#index && this.load()) {
      this.spill();
    }
    return this.#index;
  }

  #readBlock(block: number): Uint32Array | null {
    const first = block * BLOCK_KEYS;
    const bytes = Buffer.alloc(Math.min(BLOCK_KEYS, this.count - first) * KEY_BYTES);
    let fd: number | null = null;
    try {
      fd = openSync(this.path!, NO_FOLLOW.read);
      if (readSync(fd, bytes, 0, bytes.length, HEADER_BYTES + first * KEY_BYTES) !== bytes.length) {
        throw new Error('file shorter than its header says');
      }
      return fromBigEndian(bytes);
    } catch (error) {
      this.#damaged = true;
      this.#log(`webhooks: dedup: ignoring ${basename(this.path!)} (${errorText(error)})`);
      return null;
    } finally {
      if (fd !== null) {
        closeSync(fd);
      }
    }
  }
}

/** The first and last key, packed. */
function boundsOf(keys: Uint32Array, count: number): Uint32Array {
  const bounds = new Uint32Array(2 * KEY_WORDS);
  bounds.set(keys.subarray(0, KEY_WORDS), 0);
  bounds.set(keys.subarray((count - 1) * KEY_WORDS, count * KEY_WORDS), KEY_WORDS);
  return bounds;
}

function sparseIndex(keys: Uint32Array, count: number): Uint32Array {
  const blocks = Math.ceil(count / BLOCK_KEYS);
  const index = new Uint32Array(blocks * KEY_WORDS);
  for (let b = 0; b < blocks; b++) {
    index.set(keys.subarray(b * BLOCK_KEYS * KEY_WORDS, (b * BLOCK_KEYS + 1) * KEY_WORDS), b * KEY_WORDS);
  }
  return index;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

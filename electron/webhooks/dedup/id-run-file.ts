/**
 * The id run file's format: a 40-byte header (magic, count, CRC-32 of the keys, first and last time), then
 * the keys, 16 bytes each, big-endian whatever the machine's byte order.
 */
import { writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

export const HEADER_BYTES = 40;
const MAGIC = 'GRRUN001';

/** What describes a run without its keys. */
export interface RunHeader {
  count: number;
  crc: number;
  firstMs: number;
  lastMs: number;
}

export function encodeHeader(header: RunHeader): Buffer {
  const head = Buffer.alloc(HEADER_BYTES);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32BE(header.count, 8);
  head.writeUInt32BE(header.crc, 12);
  head.writeDoubleBE(header.firstMs, 16);
  head.writeDoubleBE(header.lastMs, 24);
  return head;
}

export function decodeHeader(head: Buffer): RunHeader | null {
  if (head.toString('latin1', 0, 8) !== MAGIC) {
    return null;
  }
  return {
    count: head.readUInt32BE(8),
    crc: head.readUInt32BE(12),
    firstMs: head.readDoubleBE(16),
    lastMs: head.readDoubleBE(24),
  };
}

/**
 * Writes the keys big-endian after the header through one 16 KiB buffer and returns
 * their CRC-32: a whole big-endian copy of the run, and another to put the header before it, were two
 * run-sized allocations per seal (docs/decisions.md, "The id memory allocates once per run").
 */
export function writeKeys(fd: number, keys: Uint32Array): number {
  const CHUNK_WORDS = 4096;
  const chunk = Buffer.alloc(CHUNK_WORDS * 4);
  let crc = 0;
  for (let from = 0; from < keys.length; from += CHUNK_WORDS) {
    const words = Math.min(CHUNK_WORDS, keys.length - from);
    for (let i = 0; i < words; i++) {
      chunk.writeUInt32BE(keys[from + i]!, i * 4);
    }
    const bytes = chunk.subarray(0, words * 4);
    crc = crc32(bytes, crc);
    writeFully(fd, bytes, HEADER_BYTES + from * 4);
  }
  return crc;
}

export function fromBigEndian(bytes: Buffer): Uint32Array {
  const words = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < words.length; i++) {
    words[i] = bytes.readUInt32BE(i * 4);
  }
  return words;
}

/** Writes all of `bytes` at file offset `position`. */
export function writeFully(fd: number, bytes: Buffer, position: number): void {
  let offset = 0;
  while (offset < bytes.length) {
    offset += writeSync(fd, bytes, offset, bytes.length - offset, position + offset);
  }
}

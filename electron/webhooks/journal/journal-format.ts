/**
 * The journal's record framing, kept apart from the file handling so it can be tested byte by byte.
 *
 * One record per line: `<crc32 of the JSON, 8 lower-case hex digits> <JSON of the JournalRecord>\n`.
 * `JSON.stringify` escapes every newline inside strings, so a raw `\n` byte only ever ends a record, and
 * a byte-level split on `\n` recovers the records even when a multi-byte UTF-8 body is involved (0x0A never
 * occurs inside a UTF-8 sequence). The CRC covers the JSON's UTF-8 bytes and catches a torn or bit-flipped
 * line that still happens to parse.
 */
import { crc32 } from 'node:zlib';
import type { JournalRecord } from '../events/types';
import type { Result } from '../../../shared/errors';

/** The byte that ends every record. */
export const RECORD_END = 0x0a;

/** Why a line could not be read back as a record. */
export type DecodeFailure = 'framing' | 'crc' | 'json' | 'shape';

/** The result of decoding one line (without its newline). */
export type DecodeResult = Result<JournalRecord, DecodeFailure>;

const CRC_HEX = /^[0-9a-f]{8}$/;

/** The CRC-32 (IEEE, as zlib and gzip use) of `text`'s UTF-8 bytes, as 8 lower-case hex digits. */
export function crc32Hex(text: string): string {
  return crc32(text).toString(16).padStart(8, '0');
}

/** Frames one record as a complete line, newline included. */
export function encodeRecord(record: JournalRecord): string {
  // Copy the known fields only, in a fixed order, so a caller's extra properties never reach the disk.
  const json = JSON.stringify({
    messageId: record.messageId,
    subscriptionId: record.subscriptionId,
    type: record.type,
    version: record.version,
    timestamp: record.timestamp,
    receivedAtMs: record.receivedAtMs,
    bodyHash: record.bodyHash,
    body: record.body,
  });
  return `${crc32Hex(json)} ${json}\n`;
}

/** Decodes one line (the text between two newlines, without them). Never throws. */
export function decodeLine(line: string): DecodeResult {
  const space = line.indexOf(' ');
  if (space !== 8 || !CRC_HEX.test(line.slice(0, 8))) {
    return { ok: false, error: 'framing' };
  }
  const json = line.slice(9);
  if (crc32Hex(json) !== line.slice(0, 8)) {
    return { ok: false, error: 'crc' };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { ok: false, error: 'json' };
  }
  return isJournalRecord(value) ? { ok: true, value } : { ok: false, error: 'shape' };
}

/** A runtime guard for a parsed record; a record written by an older or foreign build must not slip through. */
export function isJournalRecord(value: unknown): value is JournalRecord {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const r = value as Record<string, unknown>;
  return (
    typeof r.messageId === 'string' &&
    typeof r.subscriptionId === 'string' &&
    typeof r.type === 'string' &&
    typeof r.version === 'string' &&
    typeof r.timestamp === 'string' &&
    typeof r.receivedAtMs === 'number' &&
    Number.isFinite(r.receivedAtMs) &&
    typeof r.bodyHash === 'string' &&
    typeof r.body === 'string'
  );
}

/** One line found in a segment's bytes. `end` is the offset just past its newline (or the buffer's end). */
export interface ScannedLine {
  start: number;
  end: number;
  /** False for a trailing fragment with no newline: a write the process died in the middle of. */
  terminated: boolean;
  result: DecodeResult;
}

/** Splits a segment's bytes into lines and decodes each; an empty final piece is not a line. */
export function scanSegment(bytes: Buffer): ScannedLine[] {
  const lines: ScannedLine[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(RECORD_END, start);
    const terminated = nl !== -1;
    const stop = terminated ? nl : bytes.length;
    const result: DecodeResult = terminated
      ? decodeLine(bytes.toString('utf8', start, stop))
      : { ok: false, error: 'framing' };
    lines.push({ start, end: terminated ? nl + 1 : stop, terminated, result });
    start = terminated ? nl + 1 : stop;
  }
  return lines;
}

/** The intact records of one segment, and where the damaged lines were. */
export interface SegmentContents {
  records: JournalRecord[];
  skipped: { start: number; reason: DecodeFailure }[];
}

/**
 * Decodes a whole segment. `live` marks the segment being appended to: its unterminated tail is an append
 * still in progress, not damage, so it is left out without being reported.
 */
export function readSegment(bytes: Buffer, live: boolean): SegmentContents {
  const contents: SegmentContents = { records: [], skipped: [] };
  for (const line of scanSegment(bytes)) {
    if (line.result.ok) {
      contents.records.push(line.result.value);
    } else if (line.terminated || !live) {
      contents.skipped.push({ start: line.start, reason: line.result.error });
    }
  }
  return contents;
}

// --- Segment names ---

const SEGMENT_NAME = /^journal-(\d{6,})\.log$/;

/** The file name of segment `seq`: `journal-000001.log`. */
export function segmentName(seq: number): string {
  return `journal-${String(seq).padStart(6, '0')}.log`;
}

/** The sequence number of a segment file name, or null for any other file. */
export function parseSegmentName(name: string): number | null {
  const match = SEGMENT_NAME.exec(name);
  return match ? Number(match[1]) : null;
}

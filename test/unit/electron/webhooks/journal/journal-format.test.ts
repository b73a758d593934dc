import { describe, expect, it } from 'vitest';
import {
  crc32Hex,
  decodeLine,
  encodeRecord,
  isJournalRecord,
  parseSegmentName,
  readSegment,
  scanSegment,
  segmentName,
} from '../../../../../electron/webhooks/journal/journal-format';
import type { JournalRecord } from '../../../../../electron/webhooks/events/types';

function record(overrides: Partial<JournalRecord> = {}): JournalRecord {
  return {
    messageId: '01JQ8ZV4M3K5N7P9R1S3T5V7X9',
    subscriptionId: '01JQ8ZV4M3K5N7P9R1S3T5V7XA',
    type: 'chat.message.sent',
    version: '1',
    timestamp: '2025-04-01T07:56:19Z',
    receivedAtMs: 1_743_494_179_250,
    bodyHash: 'a'.repeat(64),
    body: '{"content":"hi"}',
    ...overrides,
  };
}

/** The line without its newline, as `decodeLine` takes it. */
function lineOf(r: JournalRecord): string {
  return encodeRecord(r).slice(0, -1);
}

describe('journal record framing', () => {
  it('round-trips a record through one line', () => {
    const r = record();
    const encoded = encodeRecord(r);
    expect(encoded.endsWith('\n')).toBe(true);
    expect(encoded.indexOf('\n')).toBe(encoded.length - 1);
    expect(encoded).toMatch(/^[0-9a-f]{8} \{/);
    expect(decodeLine(encoded.slice(0, -1))).toEqual({ ok: true, value: r });
  });

  it('keeps newlines, quotes, emoji and non-Latin text in the body on a single line', () => {
    const r = record({ body: '{"content":"line1\\nline2"}\nraw\r\nnewline "quoted" 🎉 привет \u2028' });
    const encoded = encodeRecord(r);
    expect(encoded.split('\n')).toHaveLength(2);
    expect(decodeLine(encoded.slice(0, -1))).toEqual({ ok: true, value: r });
  });

  it('writes only the record fields, whatever else the caller passed', () => {
    const r = { ...record(), secret: 'x' } as JournalRecord;
    const decoded = decodeLine(lineOf(r));
    expect(decoded.ok && Object.keys(decoded.value)).toEqual([
      'messageId',
      'subscriptionId',
      'type',
      'version',
      'timestamp',
      'receivedAtMs',
      'bodyHash',
      'body',
    ]);
  });

  it('computes the standard CRC-32 (IEEE) as 8 hex digits', () => {
    // The well-known check value of CRC-32 over "123456789".
    expect(crc32Hex('123456789')).toBe('cbf43926');
    expect(crc32Hex('')).toBe('00000000');
  });

  it('rejects a line whose JSON does not match its CRC', () => {
    const line = lineOf(record());
    const flipped = line.replace('"version":"1"', '"version":"2"');
    expect(flipped).not.toBe(line);
    expect(decodeLine(flipped)).toEqual({ ok: false, error: 'crc' });
  });

  it('rejects a line cut short (a torn write)', () => {
    const line = lineOf(record());
    expect(decodeLine(line.slice(0, line.length - 10))).toEqual({ ok: false, error: 'crc' });
    expect(decodeLine(line.slice(0, 5))).toEqual({ ok: false, error: 'framing' });
    expect(decodeLine('')).toEqual({ ok: false, error: 'framing' });
  });

  it('rejects bad framing, bad JSON with a matching CRC, and JSON of the wrong shape', () => {
    const json = '{"messageId":1}';
    expect(decodeLine(`ABCDEF01 ${json}`)).toEqual({ ok: false, error: 'framing' });
    expect(decodeLine(`${crc32Hex(json)}  ${json}`)).toEqual({ ok: false, error: 'crc' });
    expect(decodeLine(`${crc32Hex('{nope')} {nope`)).toEqual({ ok: false, error: 'json' });
    expect(decodeLine(`${crc32Hex(json)} ${json}`)).toEqual({ ok: false, error: 'shape' });
    expect(isJournalRecord({ ...record(), receivedAtMs: '1' })).toBe(false);
    expect(isJournalRecord(null)).toBe(false);
  });

  it('scans a segment into lines with byte offsets and flags an unterminated tail', () => {
    const a = encodeRecord(record({ messageId: 'a', body: 'ü'.repeat(3) }));
    const b = encodeRecord(record({ messageId: 'b' }));
    const torn = encodeRecord(record({ messageId: 'c' })).slice(0, 40);
    const bytes = Buffer.from(a + 'garbage\n' + b + torn, 'utf8');
    const lines = scanSegment(bytes);
    expect(lines.map((l) => [l.terminated, l.result.ok])).toEqual([
      [true, true],
      [true, false],
      [true, true],
      [false, false],
    ]);
    const aBytes = Buffer.byteLength(a);
    expect(lines[0]).toMatchObject({ start: 0, end: aBytes });
    expect(lines[1]).toMatchObject({ start: aBytes, end: aBytes + 8 });
    expect(lines[3]).toMatchObject({ start: bytes.length - 40, end: bytes.length });
    expect(scanSegment(Buffer.alloc(0))).toEqual([]);
  });

  it('reads a segment, reporting damaged lines but not the live tail of an append in progress', () => {
    const a = encodeRecord(record({ messageId: 'a' }));
    const torn = encodeRecord(record({ messageId: 'b' })).slice(0, 30);
    const bytes = Buffer.from(a + 'x\n' + a + torn, 'utf8');
    const live = readSegment(bytes, true);
    expect(live.records.map((r) => r.messageId)).toEqual(['a', 'a']);
    expect(live.skipped).toEqual([{ start: Buffer.byteLength(a), reason: 'framing' }]);
    expect(readSegment(bytes, false).skipped).toEqual([
      { start: Buffer.byteLength(a), reason: 'framing' },
      { start: bytes.length - 30, reason: 'framing' },
    ]);
  });

  it('names segments with six-digit sequence numbers and parses them back', () => {
    expect(segmentName(1)).toBe('journal-000001.log');
    expect(segmentName(1_234_567)).toBe('journal-1234567.log');
    expect(parseSegmentName('journal-000042.log')).toBe(42);
    expect(parseSegmentName('journal-1234567.log')).toBe(1_234_567);
    expect(parseSegmentName('journal-42.log')).toBeNull();
    expect(parseSegmentName('journal-000042.log.tmp')).toBeNull();
  });
});

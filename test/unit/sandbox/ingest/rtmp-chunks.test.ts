import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChunkReader, ChunkStreamError, type RtmpMessage, writeMessage } from '../../../../sandbox/ingest/rtmp-chunks';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

function message(overrides: Partial<RtmpMessage> = {}): RtmpMessage {
  return { chunkStreamId: 6, typeId: 9, timestamp: 40, messageStreamId: 1, payload: randomBytes(300), ...overrides };
}

function setChunkSize(size: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(size);
  return writeMessage({ chunkStreamId: 2, typeId: 1, timestamp: 0, messageStreamId: 0, payload }, 128);
}

describe('ChunkReader', () => {
  it('reads a message cut into chunks, split at every byte boundary across reads', () => {
    const sent = [message(), message({ chunkStreamId: 4, typeId: 8, payload: randomBytes(129), timestamp: 7 })];
    const bytes = Buffer.concat(sent.map((m) => writeMessage(m, 128)));
    for (let cut = 1; cut < bytes.length; cut++) {
      const reader = new ChunkReader();
      const got = [...reader.push(bytes.subarray(0, cut)), ...reader.push(bytes.subarray(cut))];
      expect(got, `cut at ${cut}`).toEqual(sent);
    }
  });

  it('reads byte by byte', () => {
    const sent = message({ payload: randomBytes(1000) });
    const reader = new ChunkReader();
    const got: RtmpMessage[] = [];
    for (const byte of writeMessage(sent, 128)) {
      got.push(...reader.push(Buffer.from([byte])));
    }
    expect(got).toEqual([sent]);
  });

  it('follows the peer Set Chunk Size for the chunks after it, in the same read', () => {
    const sent = message({ payload: randomBytes(10_000) });
    const reader = new ChunkReader();
    const got = reader.push(Buffer.concat([setChunkSize(4096), writeMessage(sent, 4096)]));
    expect(got).toEqual([sent]);
    expect(reader.chunkSize).toBe(4096);
    // Back down to 128: the next message is read in 128-byte chunks again.
    const next = message({ payload: randomBytes(500) });
    expect(reader.push(Buffer.concat([setChunkSize(128), writeMessage(next, 128)]))).toEqual([next]);
  });

  it('reads type 1, 2 and 3 headers against the earlier ones on the chunk stream', () => {
    const reader = new ChunkReader();
    const first = reader.push(Buffer.concat([hex('06 000064 000002 09 01000000'), hex('aabb')]));
    expect(first).toEqual([{ chunkStreamId: 6, typeId: 9, timestamp: 100, messageStreamId: 1, payload: hex('aabb') }]);
    // Type 1: delta 10, new length and type, same stream.
    expect(reader.push(hex('46 00000a 000001 08 cc'))).toEqual([
      { chunkStreamId: 6, typeId: 8, timestamp: 110, messageStreamId: 1, payload: hex('cc') },
    ]);
    // Type 2: delta 5, same length and type.
    expect(reader.push(hex('86 000005 dd'))[0]).toMatchObject({ timestamp: 115, typeId: 8, payload: hex('dd') });
    // Type 3 starting a message: the previous delta again.
    expect(reader.push(hex('c6 ee'))[0]).toMatchObject({ timestamp: 120, payload: hex('ee') });
  });

  it('reads extended timestamps on the type 0 header and on every type 3 continuation', () => {
    const sent = message({ timestamp: 0x01234567, payload: randomBytes(300) });
    const bytes = writeMessage(sent, 128);
    // 1 + 11 + 4 + 128, then 1 + 4 + 128, then 1 + 4 + 44.
    expect(bytes.length).toBe(144 + 133 + 49);
    expect(bytes.readUInt32BE(1 + 11 + 4 + 128 + 1)).toBe(0x01234567);
    expect(new ChunkReader().push(bytes)).toEqual([sent]);
    const reader = new ChunkReader();
    expect([...reader.push(bytes.subarray(0, 146)), ...reader.push(bytes.subarray(146))]).toEqual([sent]);
  });

  it('reads two- and three-byte chunk stream ids', () => {
    for (const csid of [64, 319, 320, 65_599]) {
      const sent = message({ chunkStreamId: csid, payload: randomBytes(200) });
      expect(new ChunkReader().push(writeMessage(sent, 128))).toEqual([sent]);
    }
  });

  it('puts interleaved messages on different chunk streams back together', () => {
    const a = message({ chunkStreamId: 4, payload: randomBytes(256) });
    const b = message({ chunkStreamId: 6, payload: randomBytes(256) });
    const chunksOf = (m: RtmpMessage): Buffer[] => {
      const bytes = writeMessage(m, 128);
      return [bytes.subarray(0, 12 + 128), bytes.subarray(12 + 128)];
    };
    const [a1, a2] = chunksOf(a);
    const [b1, b2] = chunksOf(b);
    expect(new ChunkReader().push(Buffer.concat([a1!, b1!, a2!, b2!]))).toEqual([a, b]);
  });

  it('drops a partial message on Abort', () => {
    const reader = new ChunkReader();
    const partial = writeMessage(message({ payload: randomBytes(300) }), 128).subarray(0, 12 + 128);
    expect(reader.push(partial)).toEqual([]);
    expect(reader.bufferedBytes).toBe(128);
    const abort = writeMessage(
      { chunkStreamId: 2, typeId: 2, timestamp: 0, messageStreamId: 0, payload: hex('00000006') },
      128,
    );
    const next = message({ payload: randomBytes(10) });
    expect(reader.push(Buffer.concat([abort, writeMessage(next, 128)]))).toEqual([next]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it.each([0, 1, 127, 2 ** 31, 0xffffffff])('refuses chunk size %i', (size) => {
    expect(() => new ChunkReader().push(setChunkSize(size))).toThrow(/chunk size \d+ is outside 128–1048576/);
  });

  it('refuses a message longer than the cap from its header alone', () => {
    const reader = new ChunkReader({ maxMessageLength: 1000 });
    expect(() => reader.push(hex('06 000000 0003e9 09 01000000'))).toThrow(/1001 bytes is over the 1000 cap/);
    expect(new ChunkReader({ maxMessageLength: 1000 }).push(hex('06 000000 0003e8 09 01000000'))).toEqual([]);
  });

  it('refuses more bytes held than the cap, counting partial messages', () => {
    const reader = new ChunkReader({ maxBufferedBytes: 1000 });
    const big = writeMessage(message({ payload: randomBytes(2000) }), 128);
    expect(() => reader.push(big.subarray(0, 900))).not.toThrow();
    expect(() => reader.push(big.subarray(900, 1100))).toThrow(ChunkStreamError);
  });

  it('refuses more chunk streams than the cap', () => {
    const reader = new ChunkReader({ maxChunkStreams: 3 });
    const open = (csid: number): Buffer =>
      writeMessage(message({ chunkStreamId: csid, payload: randomBytes(200) }), 128).subarray(0, 140);
    reader.push(Buffer.concat([open(3), open(4), open(5)]));
    expect(() => reader.push(open(6))).toThrow(/more than 3 chunk streams/);
  });

  it('refuses a chunk stream that starts without a type 0 header, and a new message mid-message', () => {
    expect(() => new ChunkReader().push(hex('c5 00'))).toThrow(/needs an earlier one/);
    const reader = new ChunkReader();
    reader.push(writeMessage(message({ payload: randomBytes(300) }), 128).subarray(0, 140));
    expect(() => reader.push(hex('06 000000 000001 09 01000000 ff'))).toThrow(/before the last one ended/);
  });

  it('writes an empty message as one chunk', () => {
    const empty = message({ payload: Buffer.alloc(0) });
    expect(writeMessage(empty, 128).length).toBe(12);
    expect(new ChunkReader().push(writeMessage(empty, 128))).toEqual([empty]);
  });
});

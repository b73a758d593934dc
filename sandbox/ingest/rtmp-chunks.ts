/**
 * RTMP's chunk stream ([the ingest](../../docs/sandbox.md#kicks-ingest-in-the-sandbox)): messages cut
 * into chunks, interleaved by chunk stream id, each chunk's header saying only what changed (fmt 0 all,
 * 1 no stream id, 2 only the timestamp delta, 3 nothing). The reader puts messages back together across
 * chunks and across TCP reads, follows the peer's Set Chunk Size and Abort, and refuses, with a
 * `ChunkStreamError`, anything a publisher never sends: a chunk size out of bounds, a message longer than
 * the cap, more chunk streams or more bytes held than the caps allow.
 */

/** Protocol control message types the reader acts on itself. */
export const MESSAGE_TYPE = {
  setChunkSize: 1,
  abort: 2,
  acknowledgement: 3,
  userControl: 4,
  windowAckSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  dataAmf3: 15,
  commandAmf3: 17,
  dataAmf0: 18,
  commandAmf0: 20,
} as const;

export const DEFAULT_CHUNK_SIZE = 128;
/** The 24-bit timestamp field's value that says "the real one follows in 4 bytes". */
const EXTENDED = 0xffffff;

export interface RtmpMessage {
  chunkStreamId: number;
  typeId: number;
  /** Milliseconds, as the peer counts them (wraps at 2^32). */
  timestamp: number;
  messageStreamId: number;
  payload: Buffer;
}

export interface ChunkLimits {
  /**
   * The peer's chunk size must lie in [minChunkSize, maxChunkSize]. The spec allows 1, but a chunk size
   * below the 128-byte default only multiplies headers (a 1-byte chunk size makes every byte a chunk);
   * no encoder asks for one.
   */
  minChunkSize: number;
  maxChunkSize: number;
  /** One message's length (a video key frame is the largest a publisher sends). */
  maxMessageLength: number;
  /** Chunk streams with state; a publisher uses half a dozen. */
  maxChunkStreams: number;
  /** Bytes held at once: unread input plus every message still being put together. */
  maxBufferedBytes: number;
}

export const CHUNK_LIMITS: ChunkLimits = {
  minChunkSize: DEFAULT_CHUNK_SIZE,
  maxChunkSize: 1 << 20,
  maxMessageLength: 8 << 20,
  maxChunkStreams: 64,
  maxBufferedBytes: 16 << 20,
};

export class ChunkStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkStreamError';
  }
}

interface StreamState {
  timestamp: number;
  delta: number;
  length: number;
  typeId: number;
  messageStreamId: number;
  /** Whether the last header on this chunk stream carried an extended timestamp (fmt 3 repeats it). */
  extended: boolean;
  parts: Buffer[];
  received: number;
}

/** Reads one peer's chunk stream. `push` every byte after the handshake; it returns whole messages. */
export class ChunkReader {
  readonly limits: ChunkLimits;
  #chunkSize = DEFAULT_CHUNK_SIZE;
  #input: Buffer[] = [];
  #inputLength = 0;
  /** Bytes the next parse needs before it can make progress (saves joining the input for nothing). */
  #need = 1;
  #partialBytes = 0;
  readonly #streams = new Map<number, StreamState>();

  constructor(limits: Partial<ChunkLimits> = {}) {
    this.limits = { ...CHUNK_LIMITS, ...limits };
  }

  get chunkSize(): number {
    return this.#chunkSize;
  }

  /** Unread input plus partial messages: what the buffered-bytes cap counts. */
  get bufferedBytes(): number {
    return this.#inputLength + this.#partialBytes;
  }

  push(data: Buffer): RtmpMessage[] {
    if (data.length > 0) {
      this.#input.push(data);
      this.#inputLength += data.length;
    }
    this.#checkBuffered();
    if (this.#inputLength < this.#need) {
      return [];
    }
    const bytes = this.#input.length === 1 ? this.#input[0]! : Buffer.concat(this.#input, this.#inputLength);
    const messages: RtmpMessage[] = [];
    let offset = 0;
    for (;;) {
      const used = this.#chunk(bytes, offset, messages);
      if (used === 0) {
        break;
      }
      offset += used;
    }
    const rest = bytes.subarray(offset);
    // Keep a copy of a small remainder rather than a view pinning the whole read.
    this.#input = rest.length === 0 ? [] : [rest.length < 4096 ? Buffer.from(rest) : rest];
    this.#inputLength = rest.length;
    this.#checkBuffered();
    return messages;
  }

  #checkBuffered(): void {
    if (this.bufferedBytes > this.limits.maxBufferedBytes) {
      throw new ChunkStreamError(`more than ${this.limits.maxBufferedBytes} bytes held for one connection`);
    }
  }

  /** Parses one chunk at `offset`; returns the bytes it used, or 0 (and sets `#need`) when incomplete. */
  #chunk(bytes: Buffer, offset: number, out: RtmpMessage[]): number {
    const available = bytes.length - offset;
    if (available < 1) {
      this.#need = 1;
      return 0;
    }
    let pos = offset;
    const first = bytes[pos++]!;
    const fmt = first >> 6;
    let csid = first & 0x3f;
    if (csid === 0 || csid === 1) {
      const extra = csid === 0 ? 1 : 2;
      if (available < 1 + extra) {
        this.#need = 1 + extra;
        return 0;
      }
      csid = csid === 0 ? 64 + bytes[pos]! : 64 + bytes[pos]! + bytes[pos + 1]! * 256;
      pos += extra;
    }
    const headerSize = [11, 7, 3, 0][fmt]!;
    let stream = this.#streams.get(csid);
    if (fmt !== 0 && !stream) {
      throw new ChunkStreamError(`chunk stream ${csid} starts with a type ${fmt} header, which needs an earlier one`);
    }
    if (pos - offset + headerSize > available) {
      this.#need = pos - offset + headerSize;
      return 0;
    }
    const field = headerSize > 0 ? bytes.readUIntBE(pos, 3) : 0;
    const extended = fmt === 3 ? stream!.extended : field === EXTENDED;
    const need = pos - offset + headerSize + (extended ? 4 : 0);
    if (need > available) {
      this.#need = need;
      return 0;
    }
    const timeValue = extended ? bytes.readUInt32BE(pos + headerSize) : field;
    const starting = !stream || stream.received === 0;
    let length = stream?.length ?? 0;
    if (fmt <= 1) {
      length = bytes.readUIntBE(pos + 3, 3);
      if (length > this.limits.maxMessageLength) {
        throw new ChunkStreamError(`a message of ${length} bytes is over the ${this.limits.maxMessageLength} cap`);
      }
    }
    const payloadSize = Math.min(this.#chunkSize, length - (starting ? 0 : stream!.received));
    if (need + payloadSize > available) {
      this.#need = need + payloadSize;
      return 0;
    }

    // The whole chunk is here: only now does any state change, so an incomplete chunk is read again whole.
    if (!stream) {
      if (this.#streams.size >= this.limits.maxChunkStreams) {
        throw new ChunkStreamError(`more than ${this.limits.maxChunkStreams} chunk streams`);
      }
      stream = { timestamp: 0, delta: 0, length: 0, typeId: 0, messageStreamId: 0, extended, parts: [], received: 0 };
      this.#streams.set(csid, stream);
    }
    if (fmt !== 3 && !starting) {
      throw new ChunkStreamError(`chunk stream ${csid} starts a new message before the last one ended`);
    }
    stream.extended = extended;
    if (fmt === 0) {
      stream.timestamp = timeValue;
      stream.delta = 0;
      stream.messageStreamId = bytes.readUInt32LE(pos + 7);
    } else if (fmt === 1 || fmt === 2) {
      stream.delta = timeValue;
      stream.timestamp = (stream.timestamp + timeValue) >>> 0;
    } else if (starting) {
      // A type 3 chunk that starts a message repeats the previous message's delta.
      stream.timestamp = (stream.timestamp + stream.delta) >>> 0;
    }
    if (fmt <= 1) {
      stream.length = length;
      stream.typeId = bytes[pos + 6]!;
    }
    const payload = bytes.subarray(need + offset, need + offset + payloadSize);
    stream.parts.push(payload);
    stream.received += payloadSize;
    this.#partialBytes += payloadSize;
    if (stream.received >= stream.length) {
      const message: RtmpMessage = {
        chunkStreamId: csid,
        typeId: stream.typeId,
        timestamp: stream.timestamp,
        messageStreamId: stream.messageStreamId,
        payload: stream.parts.length === 1 ? Buffer.from(stream.parts[0]!) : Buffer.concat(stream.parts),
      };
      this.#partialBytes -= stream.received;
      stream.parts = [];
      stream.received = 0;
      this.#control(message, out);
    }
    this.#need = 1;
    return need + payloadSize;
  }

  /** Set Chunk Size and Abort change how the rest is read, so the reader acts on them itself. */
  #control(message: RtmpMessage, out: RtmpMessage[]): void {
    if (message.typeId === MESSAGE_TYPE.setChunkSize) {
      if (message.payload.length < 4) {
        throw new ChunkStreamError('Set Chunk Size without its 4 bytes');
      }
      const size = message.payload.readUInt32BE(0);
      if (size < this.limits.minChunkSize || size > this.limits.maxChunkSize) {
        throw new ChunkStreamError(
          `chunk size ${size} is outside ${this.limits.minChunkSize}–${this.limits.maxChunkSize}`,
        );
      }
      this.#chunkSize = size;
      return;
    }
    if (message.typeId === MESSAGE_TYPE.abort) {
      if (message.payload.length < 4) {
        throw new ChunkStreamError('Abort without its 4 bytes');
      }
      const stream = this.#streams.get(message.payload.readUInt32BE(0));
      if (stream) {
        this.#partialBytes -= stream.received;
        stream.parts = [];
        stream.received = 0;
      }
      return;
    }
    out.push(message);
  }
}

/** The basic header for `fmt` on chunk stream `csid` (1 byte up to 63, 2 up to 319, 3 beyond). */
function basicHeader(fmt: number, csid: number): Buffer {
  if (csid < 2 || csid > 65_599) {
    throw new RangeError(`chunk stream id ${csid} is outside 2–65599`);
  }
  if (csid < 64) {
    return Buffer.from([(fmt << 6) | csid]);
  }
  if (csid < 320) {
    return Buffer.from([fmt << 6, csid - 64]);
  }
  return Buffer.from([(fmt << 6) | 1, (csid - 64) & 0xff, (csid - 64) >> 8]);
}

/** One message as chunks of `chunkSize`: a type 0 header, then type 3 headers (each with the extended time). */
export function writeMessage(message: RtmpMessage, chunkSize: number): Buffer {
  const extended = message.timestamp >= EXTENDED;
  const header = Buffer.alloc(11 + (extended ? 4 : 0));
  header.writeUIntBE(extended ? EXTENDED : message.timestamp, 0, 3);
  header.writeUIntBE(message.payload.length, 3, 3);
  header.writeUInt8(message.typeId, 6);
  header.writeUInt32LE(message.messageStreamId, 7);
  if (extended) {
    header.writeUInt32BE(message.timestamp >>> 0, 11);
  }
  const parts: Buffer[] = [basicHeader(0, message.chunkStreamId), header];
  const continuation = Buffer.concat([
    basicHeader(3, message.chunkStreamId),
    extended ? header.subarray(11) : Buffer.alloc(0),
  ]);
  for (let at = 0; at < message.payload.length || at === 0; at += chunkSize) {
    if (at > 0) {
      parts.push(continuation);
    }
    parts.push(message.payload.subarray(at, at + chunkSize));
    if (message.payload.length === 0) {
      break;
    }
  }
  return Buffer.concat(parts);
}

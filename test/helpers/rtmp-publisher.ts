/**
 * A minimal RTMP publishing client, written apart from the sandbox's ingest so the two check each other:
 * the third-party encoder of the ingest tests. Plain handshake, `connect`, `releaseStream`, `FCPublish`,
 * `createStream`, `publish`, FLV audio and video tags, `FCUnpublish` and `deleteStream`, as OBS's librtmp
 * sends them. Also the raw pieces (`rawSocket`, `clientHandshake`, `chunkBytes`, `amf`) that the hostile
 * tests build bad input from.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** AMF0 values this client writes and reads. */
export type Amf = number | boolean | string | null | undefined | { [key: string]: Amf };

/** AMF0-encodes values (number, boolean, string, null, undefined, object). */
export function amf(...values: Amf[]): Buffer {
  const out: Buffer[] = [];
  const str = (s: string): Buffer => {
    const b = Buffer.from(s, 'utf8');
    return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
  };
  const write = (v: Amf): void => {
    if (typeof v === 'number') {
      const b = Buffer.alloc(9);
      b.writeDoubleBE(v, 1);
      out.push(b);
    } else if (typeof v === 'boolean') {
      out.push(Buffer.from([1, v ? 1 : 0]));
    } else if (typeof v === 'string') {
      out.push(Buffer.from([2]), str(v));
    } else if (v === null) {
      out.push(Buffer.from([5]));
    } else if (v === undefined) {
      out.push(Buffer.from([6]));
    } else {
      out.push(Buffer.from([3]));
      for (const [k, inner] of Object.entries(v)) {
        out.push(str(k));
        write(inner);
      }
      out.push(Buffer.from([0, 0, 9]));
    }
  };
  values.forEach(write);
  return Buffer.concat(out);
}

function readAmf(b: Buffer): Amf[] {
  let at = 0;
  const str = (): string => {
    const n = b.readUInt16BE(at);
    at += 2 + n;
    return b.toString('utf8', at - n, at);
  };
  const read = (): Amf => {
    const marker = b[at++];
    if (marker === 0) {
      at += 8;
      return b.readDoubleBE(at - 8);
    }
    if (marker === 1) {
      return b[at++] !== 0;
    }
    if (marker === 2) {
      return str();
    }
    if (marker === 5) {
      return null;
    }
    if (marker === 6) {
      return undefined;
    }
    if (marker === 3) {
      const o: { [key: string]: Amf } = {};
      for (let k = str(); k !== ''; k = str()) {
        o[k] = read();
      }
      at++;
      return o;
    }
    throw new Error(`test client cannot read AMF0 type ${marker}`);
  };
  const values: Amf[] = [];
  while (at < b.length) {
    values.push(read());
  }
  return values;
}

/**
 * One message as chunk bytes: a type 0 header, then type 3 headers every `chunkSize` bytes. With
 * `extendedTimestamp` the 24-bit field holds 0xFFFFFF and every chunk carries the 4-byte time.
 */
export function chunkBytes(
  csid: number,
  typeId: number,
  streamId: number,
  payload: Buffer,
  options: { chunkSize?: number; timestamp?: number; declaredLength?: number } = {},
): Buffer {
  const size = options.chunkSize ?? 128;
  const ts = options.timestamp ?? 0;
  const extended = ts >= 0xffffff;
  const head = Buffer.alloc(12);
  head[0] = csid;
  head.writeUIntBE(extended ? 0xffffff : ts, 1, 3);
  head.writeUIntBE(options.declaredLength ?? payload.length, 4, 3);
  head[7] = typeId;
  head.writeUInt32LE(streamId, 8);
  const ext = Buffer.alloc(extended ? 4 : 0);
  if (extended) {
    ext.writeUInt32BE(ts);
  }
  const parts: Buffer[] = [head, ext];
  for (let at = 0; at < payload.length; at += size) {
    if (at > 0) {
      parts.push(Buffer.from([0xc0 | csid]), ext);
    }
    parts.push(payload.subarray(at, at + size));
  }
  return Buffer.concat(parts);
}

export interface RawSocket {
  socket: Socket;
  /** Every byte the server sent. */
  received(): Buffer;
  /** Resolves when the server closes the socket (or it errors). */
  closed: Promise<void>;
  /** Resolves once at least `n` bytes have arrived; rejects if the socket closes first. */
  waitFor(n: number): Promise<Buffer>;
}

/** A plain TCP connection to the ingest. */
export async function rawSocket(port: number): Promise<RawSocket> {
  const socket = connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  let waiters: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void }[] = [];
  const all = (): Buffer => Buffer.concat(chunks);
  socket.on('data', (d: Buffer) => {
    chunks.push(d);
    const got = all();
    waiters = waiters.filter((w) => (got.length >= w.n ? (w.resolve(got), false) : true));
  });
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      waiters.forEach((w) => w.reject(new Error(`socket closed after ${all().length} bytes`)));
      resolve();
    });
  });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    received: all,
    closed,
    waitFor: (n) =>
      all().length >= n
        ? Promise.resolve(all())
        : new Promise((resolve, reject) => waiters.push({ n, resolve, reject })),
  };
}

/** C0+C1, wait for S0+S1+S2, send C2 (S1 echoed). Returns the bytes after S2 (none, normally). */
export async function clientHandshake(raw: RawSocket): Promise<void> {
  const c1 = randomBytes(1536);
  c1.writeUInt32BE(0, 0);
  c1.writeUInt32BE(0, 4);
  raw.socket.write(Buffer.concat([Buffer.from([3]), c1]));
  const got = await raw.waitFor(1 + 1536 * 2);
  if (got[0] !== 3 || !got.subarray(1537, 3073).equals(c1)) {
    throw new Error('S0 is not version 3 or S2 does not echo C1');
  }
  raw.socket.write(got.subarray(1, 1537));
}

export interface ServerCommand {
  name: string;
  transaction: number;
  values: Amf[];
  streamId: number;
}

/** A publishing session over a real socket. */
export class RtmpPublisher {
  readonly commands: ServerCommand[] = [];
  readonly control: { typeId: number; payload: Buffer }[] = [];
  #inChunkSize = 128;
  #pending = Buffer.alloc(0);
  #streams = new Map<number, { len: number; type: number; sid: number; parts: Buffer[]; got: number }>();
  #waiters: { match: (c: ServerCommand) => boolean; resolve: (c: ServerCommand) => void }[] = [];
  #controlWaiters: { typeId: number; count: number; resolve: () => void }[] = [];
  #transaction = 1;
  streamId = 0;

  private constructor(
    readonly raw: RawSocket,
    readonly app: string,
  ) {
    raw.socket.on('data', (d: Buffer) => this.#read(d));
    void raw.closed.then(() => this.#waiters.splice(0).forEach((w) => w.resolve(closedCommand)));
  }

  /** TCP, handshake, `connect` (answered `_result` or `_error`). */
  static async connect(url: string): Promise<{ publisher: RtmpPublisher; connect: ServerCommand }> {
    const parsed = new URL(url);
    const raw = await rawSocket(Number(parsed.port));
    await clientHandshake(raw);
    const app = parsed.pathname.replace(/^\//, '');
    const publisher = new RtmpPublisher(raw, app);
    const reply = publisher.#next((c) => c.transaction === 1);
    publisher.command('connect', {
      app,
      type: 'nonprivate',
      flashVer: 'FMLE/3.0 (compatible; FMSc/1.0)',
      swfUrl: url,
      tcUrl: url,
    });
    return { publisher, connect: await reply };
  }

  /** Sends a command on chunk stream 3 (stream-level ones on the published stream). */
  command(name: string, ...args: Amf[]): number {
    const onStream = name === 'publish';
    const transaction = onStream ? 0 : this.#transaction++;
    this.send(onStream ? 8 : 3, 20, onStream ? this.streamId : 0, amf(name, transaction, ...args));
    return transaction;
  }

  send(csid: number, typeId: number, streamId: number, payload: Buffer, timestamp = 0): void {
    this.raw.socket.write(chunkBytes(csid, typeId, streamId, payload, { timestamp }));
  }

  /** releaseStream, FCPublish, createStream (waits for its stream id), publish (waits for onStatus). */
  async publish(key: string): Promise<{ code: string; description: string }> {
    this.command('releaseStream', null, key);
    this.command('FCPublish', null, key);
    const created = this.command('createStream', null);
    const result = await this.#next((c) => c.transaction === created);
    this.streamId = typeof result.values[3] === 'number' ? result.values[3] : 0;
    const status = this.#next((c) => c.name === 'onStatus');
    this.command('publish', null, key, 'live');
    const info = (await status).values[3] as { code?: string; description?: string } | undefined;
    return { code: String(info?.code), description: String(info?.description) };
  }

  /** `@setDataFrame onMetaData`, then `count` pairs of FLV audio (AAC) and video (AVC) tags. */
  sendMedia(count: number, videoBytes = 2000): { audio: number; video: number; data: number } {
    const meta = amf('@setDataFrame', 'onMetaData', { width: 1280, height: 720, framerate: 30 });
    this.send(4, 18, this.streamId, meta);
    let audio = 0;
    let video = 0;
    for (let i = 0; i < count; i++) {
      const a = Buffer.concat([Buffer.from([0xaf, 0x01]), randomBytes(200)]);
      const v = Buffer.concat([Buffer.from([i === 0 ? 0x17 : 0x27, 0x01, 0, 0, 0]), randomBytes(videoBytes)]);
      this.send(4, 8, this.streamId, a, i * 33);
      this.send(6, 9, this.streamId, v, i * 33);
      audio += a.length;
      video += v.length;
    }
    return { audio, video, data: meta.length };
  }

  /** FCUnpublish and deleteStream, as OBS sends them when it stops. */
  unpublish(key: string): void {
    this.command('FCUnpublish', null, key);
    this.command('deleteStream', null, this.streamId);
  }

  /** Resolves once the server has sent `count` messages of `typeId` (protocol control, user control…). */
  waitControl(typeId: number, count: number): Promise<void> {
    if (this.control.filter((c) => c.typeId === typeId).length >= count) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#controlWaiters.push({ typeId, count, resolve }));
  }

  close(): Promise<void> {
    this.raw.socket.end();
    return this.raw.closed;
  }

  /** The next command the server sends that `match` accepts (a closed socket answers `closed`). */
  #next(match: (c: ServerCommand) => boolean): Promise<ServerCommand> {
    const seen = this.commands.find(match);
    if (seen) {
      return Promise.resolve(seen);
    }
    if (this.raw.socket.destroyed) {
      return Promise.resolve(closedCommand);
    }
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  /** The server's chunk stream: every header type, its Set Chunk Size, messages across reads. */
  #read(data: Buffer): void {
    let b = Buffer.concat([this.#pending, data]);
    for (;;) {
      if (b.length < 1) {
        break;
      }
      const fmt = b[0]! >> 6;
      const csid = b[0]! & 0x3f;
      if (csid < 2) {
        throw new Error('test client reads one-byte chunk stream ids only');
      }
      const hlen = 1 + [11, 7, 3, 0][fmt]!;
      if (b.length < hlen) {
        break;
      }
      const prev = this.#streams.get(csid) ?? { len: 0, type: 0, sid: 0, parts: [], got: 0 };
      const s = { ...prev };
      if (fmt <= 1) {
        s.len = b.readUIntBE(4, 3);
        s.type = b[7]!;
      }
      if (fmt === 0) {
        s.sid = b.readUInt32LE(8);
      }
      const n = Math.min(this.#inChunkSize, s.len - s.got);
      if (b.length < hlen + n) {
        break;
      }
      s.parts = [...s.parts, b.subarray(hlen, hlen + n)];
      s.got += n;
      b = b.subarray(hlen + n);
      if (s.got >= s.len) {
        this.#message(s.type, s.sid, Buffer.concat(s.parts));
        s.parts = [];
        s.got = 0;
      }
      this.#streams.set(csid, s);
    }
    this.#pending = Buffer.from(b);
  }

  #message(typeId: number, streamId: number, payload: Buffer): void {
    if (typeId === 1) {
      this.#inChunkSize = payload.readUInt32BE(0);
    }
    if (typeId !== 20) {
      this.control.push({ typeId, payload });
      this.#controlWaiters = this.#controlWaiters.filter((w) =>
        this.control.filter((c) => c.typeId === w.typeId).length >= w.count ? (w.resolve(), false) : true,
      );
      return;
    }
    const values = readAmf(payload);
    const name = typeof values[0] === 'string' ? values[0] : '';
    const command: ServerCommand = { name, transaction: Number(values[1]), values, streamId };
    this.commands.push(command);
    this.#waiters = this.#waiters.filter((w) => (w.match(command) ? (w.resolve(command), false) : true));
  }
}

const closedCommand: ServerCommand = { name: 'closed', transaction: -1, values: [], streamId: 0 };

/**
 * The sandbox's RTMP ingest ([the ingest](../../docs/sandbox.md#kicks-ingest-in-the-sandbox)): a TCP
 * server on loopback that OBS, FFmpeg or any RTMP encoder publishes to, as it would to Kick's. One session
 * per socket: handshake, `connect` to the app, `createStream`, `publish` with a stream key that the
 * embedder accepts or refuses, then media bytes counted until `FCUnpublish`, `deleteStream` or the socket
 * closing ends the publish. One publish per socket: a second is refused and the socket closed. Only publishing is served (no playback).
 *
 * Whoever reaches the port decides every byte, so each session is bounded: a handshake deadline, an idle
 * deadline, caps on connections, chunk size, message length, bytes held and non-media messages; anything
 * wrong closes that socket, with one log line, and nothing else.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { type AmfObject, type AmfValue, AMF0_LIMITS, type Amf0Limits, decodeAmf0, EcmaArray, encodeAmf0 } from './amf0';
import {
  CHUNK_LIMITS,
  type ChunkLimits,
  ChunkReader,
  MESSAGE_TYPE,
  type RtmpMessage,
  writeMessage,
} from './rtmp-chunks';
import { ServerHandshake } from './rtmp-handshake';

export interface IngestLimits extends ChunkLimits, Amf0Limits {
  /** From the first byte to the end of C2. */
  handshakeTimeoutMs: number;
  /** A socket silent this long is closed (a publisher sends media many times a second). */
  idleTimeoutMs: number;
  /** Sockets open at once; more are closed as they arrive. */
  maxConnections: number;
  /** Messages other than audio and video in one session (commands, control, metadata). */
  maxOtherMessages: number;
}

export const INGEST_LIMITS: IngestLimits = {
  ...CHUNK_LIMITS,
  ...AMF0_LIMITS,
  handshakeTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  maxConnections: 16,
  maxOtherMessages: 1000,
};

/** The window sizes the ingest announces, as Kick's and most ingests do. */
const WINDOW_ACK_SIZE = 2_500_000;
/** A peer's window below this would have the ingest answer nearly every read with an acknowledgement. */
const MIN_ACK_WINDOW = 4096;
/** The chunk size the ingest sends with (OBS sends with 4,096 too). */
const OUT_CHUNK_SIZE = 4096;
/** The message stream `createStream` hands out; a session publishes one stream. */
const STREAM_ID = 1;

/** What one session has received, for tests and the CLI. */
export interface IngestSessionStats {
  id: number;
  app: string | null;
  publishing: boolean;
  audioBytes: number;
  videoBytes: number;
  dataBytes: number;
  receivedBytes: number;
}

/** The embedder's answer to `publish`: accepted (with what to do when it ends) or refused with a reason. */
export type PublishAnswer = { ok: true; end: () => void } | { ok: false; reason: string };

export interface IngestOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The application name in the URL (`rtmp://host:port/<app>`); Kick's is `app`. */
  app?: string;
  limits?: Partial<IngestLimits>;
  /** Decides a `publish` (runs synchronously; the session waits for nothing). */
  publish: (key: string) => PublishAnswer;
  log?: (line: string) => void;
}

export interface RtmpIngest {
  /** `rtmp://host:port/app`: the server URL an encoder is given. */
  url: string;
  port: number;
  sessions(): IngestSessionStats[];
  /** Resolves once no connection is open (at once when none is). */
  whenIdle(): Promise<void>;
  /** Ends every publish (synchronously) and closes every socket; the server keeps listening. */
  closeAll(): void;
  close(): Promise<void>;
}

export async function startRtmpIngest(options: IngestOptions): Promise<RtmpIngest> {
  const host = options.host ?? '127.0.0.1';
  const app = options.app ?? 'app';
  const limits: IngestLimits = { ...INGEST_LIMITS, ...options.limits };
  const log = options.log ?? (() => undefined);
  const sessions = new Set<Session>();
  const idleWaiters: (() => void)[] = [];
  let nextId = 1;
  const server: Server = createServer((socket) => {
    const session = new Session(nextId++, socket, { app, limits, publish: options.publish, log });
    sessions.add(session);
    socket.once('close', () => {
      session.end();
      sessions.delete(session);
      if (sessions.size === 0) {
        idleWaiters.splice(0).forEach((resolve) => resolve());
      }
    });
  });
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After a successful listen a server error is one socket's trouble, never the sandbox's.
  server.on('error', (error) => log(`ingest: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  const closeAll = (): void => {
    for (const session of sessions) {
      session.end();
      session.socket.destroy();
    }
  };
  return {
    url: `rtmp://${host}:${port}/${app}`,
    port,
    sessions: () => [...sessions].map((s) => s.stats()),
    whenIdle: () => (sessions.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    closeAll,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        closeAll();
      }),
  };
}

interface SessionDeps {
  app: string;
  limits: IngestLimits;
  publish: (key: string) => PublishAnswer;
  log: (line: string) => void;
}

/** One socket's RTMP conversation. Throwing anywhere in `#receive` closes the socket. */
class Session {
  readonly #handshake = new ServerHandshake();
  readonly #reader: ChunkReader;
  #app: string | null = null;
  #published: { end: () => void } | null = null;
  /** Whether this socket has asked to publish: a session publishes once, so one socket cannot flip live and offline. */
  #publishAsked = false;
  #closing = false;
  #otherMessages = 0;
  #received = 0;
  #acknowledged = 0;
  #ackWindow = WINDOW_ACK_SIZE;
  /** The chunk size the ingest writes with: RTMP's default until it announces its own. */
  #outChunkSize = 128;
  #audio = 0;
  #video = 0;
  #data = 0;
  readonly #handshakeTimer: NodeJS.Timeout;

  constructor(
    readonly id: number,
    readonly socket: Socket,
    private readonly deps: SessionDeps,
  ) {
    this.#reader = new ChunkReader(deps.limits);
    socket.setNoDelay(true);
    socket.setTimeout(deps.limits.idleTimeoutMs, () => this.#fail('silent too long'));
    this.#handshakeTimer = setTimeout(
      () => this.#fail('handshake not finished in time'),
      deps.limits.handshakeTimeoutMs,
    );
    socket.on('data', (data: Buffer) => {
      try {
        this.#receive(data);
      } catch (error) {
        this.#fail(error instanceof Error ? error.message : String(error));
      }
    });
    socket.on('error', () => undefined);
    socket.once('close', () => clearTimeout(this.#handshakeTimer));
  }

  stats(): IngestSessionStats {
    return {
      id: this.id,
      app: this.#app,
      publishing: this.#published !== null,
      audioBytes: this.#audio,
      videoBytes: this.#video,
      dataBytes: this.#data,
      receivedBytes: this.#received,
    };
  }

  /** Ends the publish, if any; safe to call more than once. */
  end(): void {
    const published = this.#published;
    this.#published = null;
    published?.end();
  }

  #fail(reason: string): void {
    if (!this.socket.destroyed) {
      this.deps.log(`ingest: closed connection ${this.id}: ${reason}`);
    }
    this.end();
    this.socket.destroy();
  }

  #receive(data: Buffer): void {
    if (this.#closing) {
      return;
    }
    this.#received += data.length;
    let bytes = data;
    if (!this.#handshake.done) {
      let step = this.#handshake.feed(data);
      if (step.kind === 'reply') {
        this.socket.write(step.reply);
        step = this.#handshake.feed(Buffer.alloc(0));
      }
      if (step.kind !== 'done') {
        return;
      }
      clearTimeout(this.#handshakeTimer);
      bytes = step.rest;
    }
    for (const message of this.#reader.push(bytes)) {
      this.#message(message);
      if (this.#closing || this.socket.destroyed) {
        return;
      }
    }
    if (this.#received - this.#acknowledged >= this.#ackWindow) {
      this.#acknowledged = this.#received;
      const sequence = Buffer.alloc(4);
      sequence.writeUInt32BE(this.#received >>> 0);
      this.#send(2, MESSAGE_TYPE.acknowledgement, 0, sequence);
    }
  }

  #message(message: RtmpMessage): void {
    const { typeId, payload } = message;
    if (typeId === MESSAGE_TYPE.audio || typeId === MESSAGE_TYPE.video) {
      if (this.#published) {
        if (typeId === MESSAGE_TYPE.audio) {
          this.#audio += payload.length;
        } else {
          this.#video += payload.length;
        }
      }
      return;
    }
    if (++this.#otherMessages > this.deps.limits.maxOtherMessages) {
      throw new Error(`more than ${this.deps.limits.maxOtherMessages} messages other than audio and video`);
    }
    if (typeId === MESSAGE_TYPE.dataAmf0 || typeId === MESSAGE_TYPE.dataAmf3) {
      this.#data += payload.length;
    } else if (typeId === MESSAGE_TYPE.windowAckSize && payload.length >= 4) {
      this.#ackWindow = Math.max(MIN_ACK_WINDOW, payload.readUInt32BE(0));
    } else if (typeId === MESSAGE_TYPE.commandAmf0) {
      this.#command(decodeAmf0(payload, this.deps.limits), message.messageStreamId);
    } else if (typeId === MESSAGE_TYPE.commandAmf3) {
      // An AMF3 command message starts with one format byte, then the values in AMF0.
      this.#command(decodeAmf0(payload.subarray(1), this.deps.limits), message.messageStreamId);
    }
    // Acknowledgements, user control and peer bandwidth change nothing the ingest keeps.
  }

  #command(values: AmfValue[], streamId: number): void {
    const [name, transaction] = values;
    if (typeof name !== 'string' || typeof transaction !== 'number') {
      throw new Error('a command without a name and transaction id');
    }
    if (name === 'connect') {
      this.#connect(values[2], transaction);
      return;
    }
    if (this.#app === null) {
      throw new Error(`${quoted(name)} before connect`);
    }
    switch (name) {
      case 'releaseStream':
      case 'FCPublish':
        this.#result(transaction, null, undefined);
        return;
      case 'createStream':
        this.#result(transaction, null, STREAM_ID);
        return;
      case 'publish':
        this.#publish(values[3], streamId);
        return;
      case 'FCUnpublish':
      case 'deleteStream':
      case 'closeStream':
        this.end();
        return;
      default:
      // Anything else (getStreamLength, _checkbw, …) gets no answer, as on a publish-only ingest.
    }
  }

  #connect(commandObject: AmfValue, transaction: number): void {
    if (this.#app !== null) {
      throw new Error('connect twice');
    }
    const requested = isObject(commandObject) && typeof commandObject.app === 'string' ? commandObject.app : '';
    // OBS sends the path after the port; a trailing slash from a pasted URL means the same app.
    const app = requested.replace(/\/+$/, '');
    if (app !== this.deps.app) {
      this.#send(
        3,
        MESSAGE_TYPE.commandAmf0,
        0,
        encodeAmf0(
          '_error',
          transaction,
          null,
          status('error', 'NetConnection.Connect.Rejected', `no application ${quoted(app)} here; use ${this.deps.app}`),
        ),
      );
      this.#close(`connect to unknown application ${quoted(app)}`);
      return;
    }
    this.#app = app;
    this.#send(2, MESSAGE_TYPE.windowAckSize, 0, u32(WINDOW_ACK_SIZE));
    this.#send(2, MESSAGE_TYPE.setPeerBandwidth, 0, Buffer.concat([u32(WINDOW_ACK_SIZE), Buffer.from([2])]));
    this.#send(2, MESSAGE_TYPE.setChunkSize, 0, u32(OUT_CHUNK_SIZE));
    this.#outChunkSize = OUT_CHUNK_SIZE;
    this.#result(
      transaction,
      { fmsVer: 'FMS/3,5,7,7009', capabilities: 31, mode: 1 },
      { ...status('status', 'NetConnection.Connect.Success', 'Connection succeeded.'), objectEncoding: 0 },
    );
  }

  #publish(key: AmfValue, streamId: number): void {
    if (this.#publishAsked) {
      // OBS opens a new connection for every stream and every reconnect; a second publish on one socket is
      // only a way to flip the channel live and offline over and over (docs/sandbox.md#kicks-ingest-in-the-sandbox).
      this.#onStatus(streamId, status('error', 'NetStream.Publish.BadName', 'one stream per connection'));
      this.#close('a second publish on one connection');
      return;
    }
    this.#publishAsked = true;
    const answer =
      typeof key === 'string' && key !== '' ? this.deps.publish(key) : { ok: false as const, reason: 'no stream key' };
    if (!answer.ok) {
      this.#onStatus(streamId, status('error', 'NetStream.Publish.BadName', answer.reason));
      this.#close(`publish refused: ${answer.reason}`);
      return;
    }
    this.#published = { end: answer.end };
    // User control "Stream Begin" for the stream, then the status OBS waits for.
    this.#send(2, MESSAGE_TYPE.userControl, 0, Buffer.concat([Buffer.from([0, 0]), u32(streamId)]));
    this.#onStatus(streamId, status('status', 'NetStream.Publish.Start', 'Publishing started.'));
  }

  #send(chunkStreamId: number, typeId: number, messageStreamId: number, payload: Buffer): void {
    if (!this.socket.destroyed) {
      this.socket.write(
        writeMessage({ chunkStreamId, typeId, timestamp: 0, messageStreamId, payload }, this.#outChunkSize),
      );
    }
  }

  #result(transaction: number, properties: AmfValue, information: AmfValue): void {
    this.#send(3, MESSAGE_TYPE.commandAmf0, 0, encodeAmf0('_result', transaction, properties, information));
  }

  #onStatus(streamId: number, info: AmfObject): void {
    this.#send(5, MESSAGE_TYPE.commandAmf0, streamId, encodeAmf0('onStatus', 0, null, info));
  }

  /** Says its last word, then closes: the rest the peer sends is ignored, the idle deadline still applies. */
  #close(reason: string): void {
    this.deps.log(`ingest: closing connection ${this.id}: ${reason}`);
    this.#closing = true;
    this.end();
    this.socket.end();
  }
}

function status(level: string, code: string, description: string): AmfObject {
  return { level, code, description };
}

/** A peer's text in a log line: cut short and quoted, so it cannot forge lines of its own. */
function quoted(text: string): string {
  return JSON.stringify(text.slice(0, 64));
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function isObject(value: AmfValue): value is AmfObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof EcmaArray);
}

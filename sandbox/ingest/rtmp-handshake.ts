/**
 * The server half of RTMP's plain handshake ([the ingest](../../docs/sandbox.md#kicks-ingest-in-the-sandbox)):
 * C0 (version 3) and C1 (1,536 bytes) in, S0, S1 and S2 (C1 echoed) out, then C2 (1,536 bytes) in.
 * OBS's librtmp and FFmpeg accept a plain S1 (no digest), so the sandbox never needs the "complex"
 * handshake Flash Player used. C2 is read and not checked, as every ingest does.
 */
import { randomBytes } from 'node:crypto';

export const RTMP_VERSION = 3;
export const HANDSHAKE_SIZE = 1536;

/** The peer's first bytes are not an RTMP handshake. */
export class HandshakeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandshakeError';
  }
}

export type HandshakeStep =
  /** Needs more bytes. */
  | { kind: 'more' }
  /** C0 and C1 arrived: send `reply` (S0 S1 S2). */
  | { kind: 'reply'; reply: Buffer }
  /** C2 arrived: the handshake is over; `rest` is the first chunk-stream bytes that came with it. */
  | { kind: 'done'; rest: Buffer };

/** One connection's handshake. Feed it every byte the socket reads until it says `done`. */
export class ServerHandshake {
  #pending: Buffer = Buffer.alloc(0);
  #phase: 'c0c1' | 'c2' | 'done' = 'c0c1';
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  get done(): boolean {
    return this.#phase === 'done';
  }

  feed(data: Buffer): HandshakeStep {
    if (this.#phase === 'done') {
      throw new HandshakeError('handshake already finished');
    }
    this.#pending = this.#pending.length === 0 ? data : Buffer.concat([this.#pending, data]);
    if (this.#phase === 'c0c1') {
      if (this.#pending.length >= 1 && this.#pending[0] !== RTMP_VERSION) {
        throw new HandshakeError(`RTMP version ${this.#pending[0]} is not 3`);
      }
      if (this.#pending.length < 1 + HANDSHAKE_SIZE) {
        return { kind: 'more' };
      }
      const c1 = this.#pending.subarray(1, 1 + HANDSHAKE_SIZE);
      this.#pending = Buffer.from(this.#pending.subarray(1 + HANDSHAKE_SIZE));
      this.#phase = 'c2';
      return { kind: 'reply', reply: Buffer.concat([Buffer.from([RTMP_VERSION]), this.#s1(), c1]) };
    }
    if (this.#pending.length < HANDSHAKE_SIZE) {
      return { kind: 'more' };
    }
    const rest = this.#pending.subarray(HANDSHAKE_SIZE);
    this.#pending = Buffer.alloc(0);
    this.#phase = 'done';
    return { kind: 'done', rest };
  }

  /** Time (4 bytes), zero (4 bytes), then random bytes: the plain handshake's S1. */
  #s1(): Buffer {
    const s1 = randomBytes(HANDSHAKE_SIZE);
    s1.writeUInt32BE(this.#now() >>> 0, 0);
    s1.writeUInt32BE(0, 4);
    return s1;
  }
}

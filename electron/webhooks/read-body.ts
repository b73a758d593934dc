/**
 * Reads a request's raw body with a size cap, keeping the exact bytes (the signature covers them). Past
 * the cap nothing more is kept and the caller answers 413 and closes the connection, so an oversized or
 * endless body costs bounded memory and work.
 */
import type { IncomingMessage } from 'node:http';

/** The body, or why there is none. */
export type BodyResult = Buffer | 'too-large' | 'aborted';

/** Whether the request announces a body (a length above zero, or chunked). */
export function hasBody(headers: Record<string, string[] | undefined>): boolean {
  const length = headers['content-length']?.[0];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The raw body, or 'too-large' as soon as it passes `maxBytes` (no further bytes are kept; the 413 closes
 * the connection), or 'aborted' when the client went away.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headersDistinct['content-length']?.[0] ?? 0);
  if (declared > maxBytes) {
    return Promise.resolve('too-large');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Inline handlers and a size check instead of removing listeners: no per-request named closures.
    req.on('data', (chunk: Buffer) => {
      if (size > maxBytes) {
        return; // already over the cap: the stream flows into nothing until the 413 closes the socket
      }
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
      } else {
        chunks.length = 0;
        resolve('too-large');
      }
    });
    // A promise settles once, so the 'close' that follows every 'end' changes nothing.
    req.on('end', () => {
      if (size <= maxBytes) {
        resolve(Buffer.concat(chunks, size));
      }
    });
    req.on('close', () => resolve('aborted'));
  });
}

/**
 * The receiver's node:http server and the time it gives a sender. Kick sends a whole delivery (headers
 * and a body of a few kilobytes) in milliseconds, so a sender still not done after a few seconds is slow or
 * hostile, and every second it is allowed is a second a tunnel socket is held (see `read-body.ts`).
 *
 * Node enforces `headersTimeout` and `requestTimeout` only when it checks its connections, every
 * `connectionsCheckingInterval` (30 s by default): with the old 20 s / 30 s limits a slow request lasted
 * about 43 s. Checking four times a second makes the limits what they say.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_BODY_TIMEOUT_MS } from './read-body';

/** How long the request line and headers may take to arrive. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
/** How often Node checks the deadlines above. */
const CONNECTIONS_CHECK_MS = 250;

export interface ReceiverTimeouts {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** The server with the receiver's limits; `handler` gets every request. */
export function createReceiverServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  timeouts: ReceiverTimeouts,
): Server {
  return createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      // A backstop for the whole request; the body's own limit (read-body.ts) is what normally applies.
      requestTimeout: timeouts.headersTimeoutMs + timeouts.bodyTimeoutMs + 1_000,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    },
    handler,
  );
}

/** The defaults, for callers that set none. */
export const DEFAULT_TIMEOUTS: ReceiverTimeouts = {
  headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
};

/** Listens on `host:port`; resolves with the port picked. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

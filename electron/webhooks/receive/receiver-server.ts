/**
 * The receiver's node:http server and the time it gives a sender. Kick sends a whole delivery (headers
 * and a body of a few kilobytes) in milliseconds, so a sender still not done after a few seconds is slow or
 * hostile, and every second it is allowed is a second a tunnel socket is held (see `read-body.ts`).
 *
 * Node enforces `headersTimeout` and `requestTimeout` only when it checks its connections, every
 * `connectionsCheckingInterval` (30 s by default): with the old 20 s / 30 s limits a slow request lasted
 * about 43 s. Checking four times a second makes the limits what they say.
 *
 * A connection with no request in flight (opened and never used, or kept alive after its answer) is closed
 * `idleTimeoutMs` after it last had work, by its own limit rather than as a side effect of the headers
 * deadline, so idle sockets cannot pile up whatever the other limits are set to. Bytes do not restart that
 * limit: Node's socket timeout does restart on any byte, and its parser skips blank lines before a request
 * line without starting the headers deadline, so a sender writing `\n` every few seconds after one answer
 * held a connection for ever. Only a whole request (Node's `request` event) stops the limit. A request being
 * processed (waiting for the journal or for the channel gate) is never cut by it: the answer, once written,
 * starts it again. See [Slow and idle senders](../../../docs/design-notes.md#slow-and-idle-senders).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DEFAULT_BODY_TIMEOUT_MS } from './read-body';

/** How long the request line and headers may take to arrive. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
/** How long a connection may sit with no request in flight (Node's own keep-alive default). */
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
/** How often Node checks the deadlines above. */
const CONNECTIONS_CHECK_MS = 250;

export interface ReceiverTimeouts {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  idleTimeoutMs: number;
}

/** The server with the receiver's limits; `handler` gets every request. */
export function createReceiverServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  timeouts: ReceiverTimeouts,
): Server {
  // Requests not yet answered, per connection: the idle limit leaves those connections alone.
  const working = new WeakMap<Socket, number>();
  // Each connection's idle limit, running while it has no request in flight; bytes do not restart it.
  const idle = new WeakMap<Socket, NodeJS.Timeout>();
  const stopIdle = (socket: Socket) => clearTimeout(idle.get(socket));
  const startIdle = (socket: Socket) => {
    stopIdle(socket);
    if (!socket.destroyed) {
      idle.set(socket, setTimeout(() => socket.destroy(), timeouts.idleTimeoutMs).unref());
    }
  };
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      // A backstop for the whole request; the body's own limit (read-body.ts) is what normally applies.
      requestTimeout: timeouts.headersTimeoutMs + timeouts.bodyTimeoutMs + 1_000,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    },
    (req, res) => {
      const socket = req.socket;
      // A whole request arrived (Node's `request` event): the connection has work again.
      stopIdle(socket);
      working.set(socket, (working.get(socket) ?? 0) + 1);
      res.once('close', () => {
        const left = (working.get(socket) ?? 1) - 1;
        working.set(socket, left);
        if (left === 0) {
          startIdle(socket);
        }
      });
      handler(req, res);
    },
  );
  // Node arms this after each answer (and tells the sender in `Keep-Alive: timeout=`); the connection
  // listener covers the time before the first request. Both restart on any byte: the idle limit above is
  // what bounds a connection that only trickles.
  server.keepAliveTimeout = timeouts.idleTimeoutMs;
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(timeouts.idleTimeoutMs);
    startIdle(socket);
    socket.once('close', () => stopIdle(socket));
  });
  // With a listener here, Node leaves a socket's timeout to us instead of destroying it outright.
  server.on('timeout', (socket: Socket) => {
    if ((working.get(socket) ?? 0) === 0) {
      socket.destroy();
    }
  });
  return server;
}

/** The defaults, for callers that set none. */
export const DEFAULT_TIMEOUTS: ReceiverTimeouts = {
  headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS,
  bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
  idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
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

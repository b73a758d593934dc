/**
 * A tiny real webhook receiver for delivery tests: a node:http server on 127.0.0.1:0 that records every
 * request (method, path, raw header casing, raw body bytes) and answers whatever the test decides.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** Path and query as requested. */
  path: string;
  /** Lower-cased, as Node parses them. */
  headers: IncomingHttpHeaders;
  /** Names and values as they came over the wire: [name, value, name, value, …]. */
  rawHeaders: string[];
  body: Buffer;
}

/** What to answer: a status code, or 'hang' to never answer. */
export type ReceiverAnswer = number | 'hang';

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides the answer to each request; defaults to 200. */
  answer: (request: ReceivedRequest) => ReceiverAnswer | Promise<ReceiverAnswer>;
  /** Resolves once at least `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Open sockets right now (keep-alive connections included). */
  connectionCount(): Promise<number>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/kick/webhook'): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    requests,
    answer: () => 200,
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    connectionCount: () =>
      new Promise((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n)))),
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) {
          res.destroy();
        }
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      for (const waiter of waiters.splice(0)) {
        if (requests.length >= waiter.count) {
          waiter.resolve();
        } else {
          waiters.push(waiter);
        }
      }
      void Promise.resolve(receiver.answer(received)).then((answer) => {
        if (answer === 'hang') {
          hanging.push(res);
          return;
        }
        res.writeHead(answer, { 'content-type': 'application/json' });
        res.end(answer === 204 ? undefined : '{"ok":true}');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/** Header names of a request in wire order and casing. */
export function rawHeaderNames(request: ReceivedRequest): string[] {
  return request.rawHeaders.filter((_, i) => i % 2 === 0);
}

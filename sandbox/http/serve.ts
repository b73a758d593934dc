import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FallbackResponses, Router } from './router';
import { HttpAnswer, type SandboxRequest, type SandboxResponse } from './types';

/** Kick's edge refuses large bodies long before the API; a megabyte is far above any real request. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

export interface ServeOptions {
  router: Router;
  fallback: FallbackResponses & {
    serverError: (req: SandboxRequest) => SandboxResponse;
    tooLarge: () => SandboxResponse;
  };
  host?: string;
  port?: number;
  /**
   * Runs on the headers before the body is read or any route runs; a response refuses the request. Gets
   * the port the server listens on (known only once it does).
   */
  guard?: (req: SandboxRequest, port: number) => SandboxResponse | null;
  /** Called for a handler bug (not for an HttpAnswer), so the sandbox can log it. */
  onError?: (error: unknown, req: SandboxRequest) => void;
  /**
   * Awaited after a route answered and before the answer is written: the sandbox saves a change that
   * must outlive a crash (a sign-in, a subscription) before the client hears of it.
   */
  beforeAnswer?: (req: SandboxRequest, response: SandboxResponse) => Promise<void>;
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts a loopback HTTP server that reads each body (capped), routes it and writes the answer. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  let port = 0;
  const server = createServer((req, res) => {
    void handle(options, port, req, res);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(options: ServeOptions, port: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const request: SandboxRequest = {
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    rawQuery: (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1) : '',
    headers: req.headers,
    rawBody: Buffer.alloc(0),
    params: {},
  };
  const refused = options.guard?.(request, port);
  if (refused) {
    // The body is never read: Node discards what is left of it once the answer is sent.
    writeResponse(res, refused);
    return;
  }
  let response: SandboxResponse;
  try {
    const body = await readBody(req, MAX_REQUEST_BYTES);
    if (body === null) {
      response = options.fallback.tooLarge();
    } else {
      request.rawBody = body;
      response = await dispatch(options, request);
    }
  } catch (error) {
    if (error instanceof HttpAnswer) {
      response = error.response;
    } else {
      options.onError?.(error, request);
      response = options.fallback.serverError(request);
    }
  }
  await options.beforeAnswer?.(request, response);
  writeResponse(res, response);
}

async function dispatch(options: ServeOptions, request: SandboxRequest): Promise<SandboxResponse> {
  const match = options.router.match(request.method, request.path);
  if ('allowed' in match) {
    return match.allowed.length === 0
      ? options.fallback.notFound(request)
      : options.fallback.methodNotAllowed(request, match.allowed);
  }
  request.params = match.params;
  return await match.handler(request);
}

/** Reads the whole body, or returns null once it passes `cap` bytes (the rest is drained, not kept). */
function readBody(req: IncomingMessage, cap: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        over = true;
      }
      if (!over) {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The responses whose handler said they changed nothing (`SandboxResponse.changesNothing`). */
const unchanging = new WeakSet<ServerResponse>();

/** Whether a finished response changed the world: answered 2xx, and not marked as changing nothing. */
export function changedTheWorld(res: ServerResponse): boolean {
  return res.statusCode >= 200 && res.statusCode < 300 && !unchanging.has(res);
}

function writeResponse(res: ServerResponse, response: SandboxResponse): void {
  if (res.headersSent) {
    return;
  }
  if (response.changesNothing) {
    unchanging.add(res);
  }
  const headers: Record<string, string> = { ...response.headers };
  let payload: string | Buffer | undefined;
  if (response.body === undefined || response.status === 204) {
    payload = undefined;
  } else if (typeof response.body === 'string' || Buffer.isBuffer(response.body)) {
    payload = response.body;
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  } else {
    payload = JSON.stringify(response.body);
    // Exactly Kick's value, no charset ([reference §1](../../docs/kick-wire-reference.md#1-hosts-and-general-conventions)): kickcom.py parses JSON only on exactly this header.
    headers['content-type'] ??= 'application/json';
  }
  if (payload !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  res.writeHead(response.status, headers);
  res.end(payload);
}

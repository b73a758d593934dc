/**
 * What the tunnel.test files share: their fixtures and helpers.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type Socket } from 'node:net';
import { request } from 'undici';
import { afterEach } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { LocalTunnel } from '../../../electron/webhooks/tunnel/localtunnel-tunnel';
import { createSelfCheck, RECEIVER_SERVICE, routeThrough } from '../../../electron/webhooks/tunnel/self-check';
import type { Tunnel, TunnelStatus } from '../../../electron/webhooks/tunnel/tunnel';
import { ManualScheduler } from '../../helpers/manual-scheduler';
import { type LocalTunnelServer, startLocalTunnelServer } from '../../helpers/localtunnel-server';

export const PATH = '/kick/webhook';

// --- Fixtures ---

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in receiver: records every request, answers the self-check GET as the real receiver does. */
export async function startReceiverStub(options: { echoCheck?: boolean } = {}) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      server.emit('recorded');
      const url = new URL(req.url!, 'http://receiver');
      const check = url.searchParams.get('check');
      if (req.method === 'GET' && url.pathname.endsWith(PATH) && check !== null) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ service: RECEIVER_SERVICE, check: options.echoCheck === false ? 'nope' : check }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('accepted');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0) {
        server.emit('idle');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    port,
    received,
    openConnections: () => sockets.size,
    /** Resolves when no connection to this server is open any more. */
    idle: () => (sockets.size === 0 ? Promise.resolve() : once(server, 'idle').then(() => undefined)),
    nextRequest: () => once(server, 'recorded').then(() => received.at(-1)!),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function waitForStatus(tunnel: Tunnel, predicate: (status: TunnelStatus) => boolean): Promise<TunnelStatus> {
  return new Promise((resolve) => {
    if (predicate(tunnel.status())) {
      resolve(tunnel.status());
      return;
    }
    const off = tunnel.onStatus((status) => {
      if (predicate(status)) {
        off();
        resolve(status);
      }
    });
  });
}

/** POSTs through the localtunnel server to the client with this subdomain, as Kick would. */
export async function postThrough(
  lt: LocalTunnelServer,
  subdomain: string,
  body: Buffer,
  headers: Record<string, string>,
) {
  const res = await request(`${lt.url}${PATH}`, {
    method: 'POST',
    headers: { ...headers, host: lt.hostFor(subdomain), 'content-type': 'application/json' },
    body,
    reset: true,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

export const cleanups: (() => Promise<void> | void)[] = [];

export async function fixture(options: { subdomain: string; echoCheck?: boolean }) {
  const lt = await startLocalTunnelServer();
  const receiver = await startReceiverStub({ echoCheck: options.echoCheck });
  const scheduler = new ManualScheduler();
  const clock = new AdjustableClock({ now: () => 1_750_000_000_000 });
  const logs: string[] = [];
  const statuses: TunnelStatus[] = [];
  const state = { lt };
  const tunnel = new LocalTunnel({
    localPort: receiver.port,
    subdomain: options.subdomain,
    host: lt.url,
    clock,
    setTimer: scheduler.setTimer,
    random: () => 0.5,
    log: (line) => logs.push(line),
    selfCheck: createSelfCheck({ path: PATH, route: routeThrough(lt.url) }),
  });
  tunnel.onStatus((status) => statuses.push(status));
  cleanups.push(
    () => receiver.close(),
    () => state.lt.stop(),
    () => tunnel.stop(),
  );
  return { lt, receiver, scheduler, clock, logs, statuses, tunnel, state };
}

// --- Localtunnel ---

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });
}

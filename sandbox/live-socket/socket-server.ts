/**
 * The loopback server that plays Kick's live socket ([sandbox facts](../../docs/sandbox.md#kicks-live-socket-in-the-sandbox)):
 * Pusher protocol 7 at `/app/<key>` (as `ws-us2.pusher.com` serves it) and Centrifugo at
 * `/connection/websocket` (as Kick's realtime host does), on one port. Upgrades are checked before a socket
 * exists: Host naming this server (a DNS-rebinding guard), no foreign Origin, and a cap on open sockets.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CentrifugoSession } from './centrifugo-session';
import type { LiveHub, LiveSession } from './live-hub';
import type { LiveSocketLimits } from './limits';
import { checkPusherUrl, PusherSession, refusePusher } from './pusher-session';

export interface LiveSocketServerOptions {
  hub: LiveHub;
  limits: LiveSocketLimits;
  host: string;
  port: number;
  /** Whether a Centrifugo connection token is one the web host minted and still valid. */
  checkToken: (token: string) => boolean;
  now: () => number;
  log: (line: string) => void;
}

export interface LiveSocketServer {
  server: Server;
  /** `ws://host:port`: Pusher clients use it as their host, Centrifugo clients add `/connection/websocket`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export const CENTRIFUGO_PATH = '/connection/websocket';

const STATUS_TEXT: Record<number, string> = { 403: 'Forbidden', 404: 'Not Found', 503: 'Service Unavailable' };

function refuseUpgrade(socket: Socket, status: number, reason: string): void {
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Whether the upgrade's Host names this server and its Origin, if any, is a loopback page: Kick's socket
 * takes any Origin, but on loopback any web page the user opens could otherwise read the sandbox's chat.
 */
export function upgradeAllowed(req: IncomingMessage, host: string, port: number): string | null {
  const names = new Set([host, '127.0.0.1', 'localhost']);
  const hosts = [...names].map((name) => `${name}:${port}`);
  const hostHeader = req.headers.host?.toLowerCase();
  if (hostHeader === undefined || !hosts.includes(hostHeader)) {
    return 'unexpected Host header';
  }
  const origin = req.headers.origin?.toLowerCase();
  if (origin !== undefined && !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/.test(origin)) {
    return 'cross-origin sockets are refused';
  }
  return null;
}

export async function startLiveSocketServer(options: LiveSocketServerOptions): Promise<LiveSocketServer> {
  const { hub, limits } = options;
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('this port speaks WebSocket only\n');
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes, perMessageDeflate: false });
  let port = 0;

  const adopt = (ws: WebSocket, session: LiveSession): void => {
    hub.sessions.add(session);
    hub.counters.connections++;
    ws.on('close', () => hub.sessions.delete(session));
    // A frame over the cap, bad UTF-8 or a broken frame: `ws` closes (1009, 1007, 1002); nothing to throw.
    ws.on('error', (error) => options.log(`sandbox: live socket closed: ${error.message}`));
  };

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => undefined);
    const refusal = upgradeAllowed(req, options.host, port);
    if (refusal) {
      hub.counters.refusedConnections++;
      refuseUpgrade(socket, 403, refusal);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const isPusher = url.pathname.startsWith('/app/');
    if (!isPusher && url.pathname !== CENTRIFUGO_PATH) {
      refuseUpgrade(socket, 404, 'no socket here');
      return;
    }
    if (hub.connections === 'refused') {
      // Told to play an unreachable socket host ([trigger](../../docs/sandbox.md#live-socket-triggers)): no socket at all.
      hub.counters.refusedConnections++;
      refuseUpgrade(socket, 503, 'the live socket is not taking connections');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (hub.sessions.size >= limits.maxConnections) {
        hub.counters.refusedConnections++;
        if (isPusher) {
          refusePusher(ws, 4004, 'Over connection quota');
        } else {
          ws.close(1013, 'too many connections');
        }
        return;
      }
      if (isPusher) {
        const refused = checkPusherUrl(url);
        if (refused) {
          hub.counters.refusedConnections++;
          refusePusher(ws, refused.code, refused.message);
          return;
        }
        adopt(ws, new PusherSession(ws, hub, limits, options.now));
      } else {
        adopt(ws, new CentrifugoSession(ws, hub, limits, options.checkToken, options.now));
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `ws://${options.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) {
          client.terminate();
        }
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

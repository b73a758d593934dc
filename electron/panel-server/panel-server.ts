/**
 * The panel server: the built renderer over loopback HTTP plus a WebSocket carrying the IPC contract, so
 * the full panel runs as an OBS custom browser dock or in any browser ([design notes](../../docs/design-notes.md#processes-and-the-one-contract), "Processes and the one
 * contract"). Requests go through the same router, and so the same validation, as Electron IPC.
 *
 * Guards, in order: bound to 127.0.0.1 only; the Host header must name this server (DNS rebinding); every
 * GET needs the access token on the page load, then a same-site cookie for the page's own files (a value
 * derived from the token that unlocks those files only); WebSocket upgrades need a panel Origin and the
 * token itself (query or a first `hello` frame), never the cookie.
 */
import type { AppEvents } from '../core/app-events';
import type { Router } from '../ipc/router';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_CHANNELS } from '../../shared/ipc-contract';
import { PANEL_CLOSE, PANEL_MAX_FRAME_BYTES, PANEL_WS_PATH } from '../../shared/panel-protocol';
import { buildPanelCsp } from './csp';
import { createPanelToken } from '../secrets/access-token';
import {
  isAllowedHost,
  isAllowedOrigin,
  panelCookieName,
  panelCookieValue,
  panelOrigins,
  readCookie,
  tokensEqual,
} from './http-guards';
import { createEventBatcher } from './event-batcher';
import { loadStaticFiles, normalizeRequestPath, type StaticFile } from './static-files';
import { runSession } from './ws-session';
import { isOverlayPath, type OverlayRoutesDeps, serveOverlay, upgradeOverlay } from './overlay-routes';

export interface PanelServerDeps {
  router: Router;
  /** The app's event source (create-app's `events`). */
  events: AppEvents;
  /** Loopback only; the option exists so the choice is visible at the call site. */
  host?: '127.0.0.1';
  /** 0 picks a free port. */
  port?: number;
  /** The built renderer (`out/renderer`). */
  staticDir: string;
  /** The access token; a fresh random one when absent. */
  token?: string;
  log?: (message: string) => void;
  /** Extra WebSocket origins besides the server's own two (`http://127.0.0.1:<port>`, `http://localhost:<port>`). */
  allowedOrigins?: readonly string[];
  /** Where emote images come from (the CSP's img-src), e.g. `https://files.kick.com`. */
  imageHosts?: readonly string[];
  /** How long a socket may wait before its hello (default 10 s). */
  helloTimeoutMs?: number;
  /** Unsent event bytes after which a stuck client is dropped (default 8 MiB); it reconnects and reloads. */
  maxBufferedBytes?: number;
  /** The OBS overlays under `/overlay/` (overlay-routes.ts); without it those paths are 404. */
  overlays?: OverlayRoutesDeps;
}

export interface PanelServer {
  /** The dock URL, token included: `http://127.0.0.1:<port>/?token=<token>`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Connected, authorized panels. */
  clientCount(): number;
  close(): Promise<void>;
}

const FORBIDDEN_TOKEN =
  'Greenroom panel: this address needs its access token; copy the full dock URL from Greenroom (Settings → OBS dock).\n';

/** Starts the panel server; resolves once it listens. */
export async function startPanelServer(options: PanelServerDeps): Promise<PanelServer> {
  const token = options.token ?? createPanelToken();
  const cookieValue = panelCookieValue(token);
  const log = options.log ?? (() => undefined);
  const files = loadStaticFiles(options.staticDir);
  const clients = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: PANEL_MAX_FRAME_BYTES, perMessageDeflate: false });
  // An overlay sends nothing but a short `alert-done`.
  const overlayWss = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false });
  const overlayContext = () => ({
    port,
    origins,
    files,
    wss: overlayWss,
    log,
  });
  let port = 0;
  let securityHeaders: Record<string, string> = {};
  let origins: string[] = [];

  const plain = (res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void => {
    res.writeHead(status, {
      ...securityHeaders,
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    });
    res.end(text);
  };

  const hasToken = (req: IncomingMessage, query: URLSearchParams): { ok: boolean; fromQuery: boolean } => {
    const fromQuery = query.get('token');
    if (fromQuery !== null) {
      return { ok: tokensEqual(fromQuery, token), fromQuery: true };
    }
    const cookie = readCookie(req.headers.cookie, panelCookieName(port));
    return { ok: cookie !== null && tokensEqual(cookie, cookieValue), fromQuery: false };
  };

  const serveFile = (req: IncomingMessage, res: ServerResponse, file: StaticFile, setCookie: boolean): void => {
    const headers: Record<string, string> = {
      ...securityHeaders,
      'content-type': file.contentType,
      'content-length': String(file.body.length),
      // `private`: the files sit behind the token, so no shared cache may keep them.
      'cache-control': file.immutable ? 'private, max-age=31536000, immutable' : 'no-store',
    };
    if (setCookie) {
      headers['set-cookie'] = `${panelCookieName(port)}=${cookieValue}; HttpOnly; SameSite=Strict; Path=/`;
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const target = req.url ?? '/';
    if (!isAllowedHost(req.headers.host, port)) {
      plain(res, 403, `Greenroom panel: open it as http://127.0.0.1:${port}/ (unexpected Host header).\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, 'Greenroom panel: only GET is served.\n', { allow: 'GET, HEAD' });
      return;
    }
    // The raw path, not URL's normalised one, so `..` is refused rather than silently resolved.
    const rawPath = target.split('?')[0] ?? '/';
    if (isOverlayPath(rawPath)) {
      serveOverlay(req, res, options.overlays, overlayContext());
      return;
    }
    const query = new URL(target, `http://127.0.0.1:${port}`).searchParams;
    const auth = hasToken(req, query);
    if (!auth.ok) {
      plain(res, 403, FORBIDDEN_TOKEN);
      return;
    }
    if (rawPath === PANEL_WS_PATH) {
      plain(res, 426, 'Greenroom panel: this path is the WebSocket.\n', { upgrade: 'websocket' });
      return;
    }
    const key = normalizeRequestPath(rawPath);
    if (key === null) {
      plain(res, 400, 'Greenroom panel: bad path.\n');
      return;
    }
    const file = files.get(key);
    if (!file) {
      const why = files.size === 0 ? 'the panel is not built yet (npm run build)' : 'no such file';
      plain(res, files.size === 0 ? 503 : 404, `Greenroom panel: ${why}.\n`);
      return;
    }
    serveFile(req, res, file, auth.fromQuery);
  };

  const rejectUpgrade = (socket: Duplex, status: number, text: string): void => {
    const reason = status === 404 ? 'Not Found' : 'Forbidden';
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', (error: NodeJS.ErrnoException) =>
      // A tab closed or a dock reloaded mid-connection resets it: nothing for the streamer to act on.
      log(
        error.code === 'ECONNRESET' || error.code === 'EPIPE'
          ? `panel: debug: a panel or overlay connection dropped (${error.code})`
          : `panel: upgrade socket error: ${error.message}`,
      ),
    );
    const target = req.url ?? '/';
    if (isOverlayPath(target.split('?')[0] ?? '/')) {
      upgradeOverlay(req, socket, head, options.overlays, overlayContext(), rejectUpgrade);
      return;
    }
    if (target.split('?')[0] !== PANEL_WS_PATH) {
      rejectUpgrade(socket, 404, 'Greenroom panel: no WebSocket here.\n');
      return;
    }
    if (!isAllowedHost(req.headers.host, port) || !isAllowedOrigin(req.headers.origin, origins)) {
      log(`panel: refused a WebSocket from origin ${String(req.headers.origin).slice(0, 100)}`);
      rejectUpgrade(socket, 403, 'Greenroom panel: foreign origin.\n');
      return;
    }
    const queryToken = new URL(target, `http://127.0.0.1:${port}`).searchParams.get('token');
    if (queryToken !== null && !tokensEqual(queryToken, token)) {
      rejectUpgrade(socket, 403, FORBIDDEN_TOKEN);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      runSession(ws, {
        router: options.router,
        token,
        authorized: queryToken !== null,
        helloTimeoutMs: options.helloTimeoutMs ?? 10_000,
        maxInFlight: 64,
        log,
        onAuthorized: (s) => clients.add(s),
        beforeResult: () => flushNow(),
      });
      ws.on('close', () => clients.delete(ws));
    });
  };

  const batcher = createEventBatcher({
    clients,
    maxBufferedBytes: options.maxBufferedBytes ?? 8 * 1024 * 1024,
    log,
  });
  const flushNow = (): void => batcher.flushNow();

  const server = createServer(onRequest);
  server.on('upgrade', onUpgrade);
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  origins = [...panelOrigins(port), ...(options.allowedOrigins ?? []).map((o) => o.toLowerCase())];
  securityHeaders = {
    'content-security-policy': buildPanelCsp({ port, imageHosts: options.imageHosts ?? [] }),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };
  const unsubscribes = EVENT_CHANNELS.map((event) =>
    options.events.on(event, (payload: unknown) => batcher.broadcast(event, payload)),
  );

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`,
    port,
    token,
    clientCount: () => clients.size,
    close: () => (closing ??= closeAll()),
  };

  async function closeAll(): Promise<void> {
    for (const unsubscribe of unsubscribes) {
      unsubscribe();
    }
    flushNow();
    const sockets = [...wss.clients, ...overlayWss.clients];
    await Promise.all(sockets.map((socket) => closeGracefully(socket)));
    // A dock that reconnected during that grace period was not in the list, and an open socket keeps the
    // server from closing: it is cut now, in the same turn as the rest, so nothing can slip in after.
    for (const socket of [...wss.clients, ...overlayWss.clients]) {
      socket.terminate();
    }
    wss.close();
    overlayWss.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/** Sends a going-away close and waits briefly for the handshake before cutting the socket. */
function closeGracefully(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState === socket.CLOSED) {
      resolve();
      return;
    }
    const timer = setTimeout(() => socket.terminate(), 1000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.close(PANEL_CLOSE.goingAway, 'server stopping');
  });
}

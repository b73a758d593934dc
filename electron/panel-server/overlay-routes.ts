/**
 * The overlay side of the panel server (docs/overlays.md, "What an overlay URL can do"): `/overlay/<kind>`
 * pages, their files under `/overlay/assets/`, alert media under `/overlay/media/`, and the read-only
 * socket at `/overlay/ws`. The overlay key opens these and nothing else: the panel's files, its WebSocket
 * and so every contract channel stay behind the panel token. The key is in the page URL; the page's own
 * files then load with a cookie derived from it (scoped to `/overlay/`), as the panel's do.
 */
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import {
  OVERLAY_KINDS,
  OVERLAY_MEDIA_PATH,
  OVERLAY_PATH_PREFIX,
  OVERLAY_WS_PATH,
  type OverlayKind,
} from '../../shared/overlays';
import type { EmoteImage } from '../overlays/emote-cache';
import type { OverlayHub } from '../overlays/overlay-hub';
import { readOverlayMedia } from '../overlays/overlay-files';
import { isAllowedHost, isAllowedOrigin, readCookie, tokensEqual } from './http-guards';
import type { StaticFile } from './static-files';

export interface OverlayRoutesDeps {
  /** The serving app's hub (a settings change may build a new app, electron/launch/app-host.ts). */
  hub: () => OverlayHub;
  /** The current overlay key (it can be regenerated while the server runs). */
  key: () => string;
  dataDir: string;
  /** An emote image from main's cache (electron/overlays/emote-cache.ts), or null. */
  emote: (id: string) => Promise<EmoteImage | null>;
}

export interface OverlayRouteContext {
  port: number;
  origins: readonly string[];
  files: ReadonlyMap<string, StaticFile>;
  wss: WebSocketServer;
  log: (line: string) => void;
}

const WRONG_KEY =
  'Greenroom overlay: this overlay URL is not valid (its key was regenerated?); copy it again from Greenroom → Overlays.\n';

/** Whether a path belongs to the overlays. */
export function isOverlayPath(rawPath: string): boolean {
  return rawPath.startsWith(OVERLAY_PATH_PREFIX);
}

/**
 * The overlay page's policy: scripts, styles, images, fonts and sounds from this server only, framed by
 * nobody but this server. It is also what keeps a streamer's custom CSS inside the machine: a `url()` or
 * font from another host is never fetched (../../docs/overlays.md#custom-css).
 */
export function buildOverlayCsp(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Emotes come through main (`/overlay/emotes/`): the page loads nothing from outside the machine.
    "img-src 'self' data:",
    // The alert fonts ship in the page's own files (renderer/src/overlay/alert-fonts.ts).
    "font-src 'self'",
    "media-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * An alert image or sound opened on its own (not as an `<img>`): nothing in it runs and it loads nothing,
 * so even an SVG that slipped past the upload check stays a picture (../../docs/overlays.md#your-own-images-and-sounds).
 */
export const OVERLAY_MEDIA_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

function cookieName(port: number): string {
  return `greenroom_overlay_${port}`;
}

function cookieValue(key: string): string {
  return createHmac('sha256', key).update('greenroom overlay files', 'utf8').digest('base64url');
}

/** Serves an overlay GET (the caller checked Host and method). */
export function serveOverlay(
  req: IncomingMessage,
  res: ServerResponse,
  options: OverlayRoutesDeps | undefined,
  context: OverlayRouteContext,
): void {
  const headers = {
    'content-security-policy': buildOverlayCsp(context.port),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const reply = (status: number, text: string): void => {
    res.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };
  if (!options) {
    reply(404, 'Greenroom overlay: overlays are not served here.\n');
    return;
  }
  const target = req.url ?? '/';
  const rawPath = target.split('?')[0] ?? '/';
  const query = new URL(target, `http://127.0.0.1:${context.port}`).searchParams;
  const key = options.key();
  const presented = query.get('key');
  const byQuery = presented !== null && tokensEqual(presented, key);
  const cookie = readCookie(req.headers.cookie, cookieName(context.port));
  const byCookie = cookie !== null && tokensEqual(cookie, cookieValue(key));
  if (!byQuery && !byCookie) {
    reply(403, WRONG_KEY);
    return;
  }
  const send = (
    body: Buffer,
    contentType: string,
    cache: string,
    policy = headers['content-security-policy'],
  ): void => {
    const extra: Record<string, string> = {};
    if (byQuery) {
      extra['set-cookie'] =
        `${cookieName(context.port)}=${cookieValue(key)}; HttpOnly; SameSite=Strict; Path=/overlay/`;
    }
    res.writeHead(200, {
      ...headers,
      'content-security-policy': policy,
      'content-type': contentType,
      'content-length': String(body.length),
      'cache-control': cache,
      ...extra,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const rest = rawPath.slice(OVERLAY_PATH_PREFIX.length);
  if ((OVERLAY_KINDS as readonly string[]).includes(rest)) {
    const page = context.files.get('/overlay.html');
    if (!page) {
      reply(503, 'Greenroom overlay: the overlays are not built yet (npm run build).\n');
      return;
    }
    send(page.body, page.contentType, 'no-store');
    return;
  }
  if (rest.startsWith('assets/') && !rest.includes('..') && !rest.includes('\\')) {
    const file = context.files.get(`/${rest}`);
    if (file) {
      send(file.body, file.contentType, 'private, max-age=31536000, immutable');
      return;
    }
  }
  const emote = /^\/overlay\/emotes\/([0-9]{1,20})\/fullsize$/.exec(rawPath);
  if (emote) {
    void options.emote(emote[1]!).then(
      (image) =>
        image ? send(image.body, image.contentType, 'private, max-age=86400') : reply(404, 'no such emote\n'),
      () => reply(502, 'the emote could not be fetched\n'),
    );
    return;
  }
  if (rawPath.startsWith(OVERLAY_MEDIA_PATH)) {
    const media = readOverlayMedia(options.dataDir, rawPath.slice(OVERLAY_MEDIA_PATH.length));
    if (media) {
      send(media.body, media.contentType, 'private, max-age=86400', OVERLAY_MEDIA_CSP);
      return;
    }
  }
  reply(404, 'Greenroom overlay: no such overlay.\n');
}

/** Accepts an overlay socket (key in the query, own origin) and hands it to the hub; refuses otherwise. */
export function upgradeOverlay(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  options: OverlayRoutesDeps | undefined,
  context: OverlayRouteContext,
  refuse: (socket: Duplex, status: number, text: string) => void,
): void {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${context.port}`);
  const kind = url.searchParams.get('kind') as OverlayKind | null;
  const presented = url.searchParams.get('key');
  if (!options || url.pathname !== OVERLAY_WS_PATH || kind === null || !OVERLAY_KINDS.includes(kind)) {
    refuse(socket, 404, 'Greenroom overlay: no WebSocket here.\n');
    return;
  }
  if (!isAllowedHost(req.headers.host, context.port) || !isAllowedOrigin(req.headers.origin, context.origins)) {
    context.log(`overlays: refused a WebSocket from origin ${String(req.headers.origin).slice(0, 100)}`);
    refuse(socket, 403, 'Greenroom overlay: foreign origin.\n');
    return;
  }
  if (presented === null || !tokensEqual(presented, options.key())) {
    refuse(socket, 403, WRONG_KEY);
    return;
  }
  context.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
    ws.on('error', (error) => context.log(`overlays: socket error: ${error.message}`));
    options.hub().attach(ws, kind);
  });
}

/**
 * The one way the panel reaches main. Under Electron that is the preload bridge (`window.greenroom`);
 * in a browser or an OBS dock it is the panel server's WebSocket. `pickTransport()` chooses, and the
 * panel builds its API over the result with `createPanelApi` (shared/panel-api.ts), so components never
 * know which one they run on. No Node, no network besides this same-origin WebSocket.
 */
import type { ErrorValue } from '../../../shared/errors';
import type { EventChannel, InvokeChannel, InvokeResult, SendChannel } from '../../../shared/ipc-contract';
import { PANEL_WS_PATH } from '../../../shared/panel-protocol';
import { createWebSocketTransport, type ConnectionStatus, type PanelConnection, type SocketLike } from './ws-transport';

export { createWebSocketTransport } from './ws-transport';
export type { ConnectionStatus, PanelConnection, SocketLike, WebSocketTransportOptions } from './ws-transport';

/** What the preload exposes as `window.greenroom` (electron/preload/index.ts). */
export interface PreloadBridge {
  invoke(channel: string, args: unknown[]): Promise<unknown>;
  send(channel: string, args: unknown[]): void;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

function isResult(value: unknown): value is InvokeResult<InvokeChannel> {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const v = value as { ok?: unknown; error?: { code?: unknown } };
  return v.ok === true || (v.ok === false && typeof v.error?.code === 'string');
}

/** The transport over the Electron preload bridge: always connected while the window lives. */
export function createPreloadTransport(bridge: PreloadBridge): PanelConnection {
  const internal = (message: string): InvokeResult<InvokeChannel> => ({
    ok: false,
    error: { code: 'Internal', message } satisfies ErrorValue,
  });
  let status: ConnectionStatus = 'open';
  return {
    get status() {
      return status;
    },
    async invoke(channel: InvokeChannel, args: unknown[]): Promise<InvokeResult<InvokeChannel>> {
      try {
        const result = await bridge.invoke(channel, args);
        return isResult(result) ? result : internal(`${channel}: main answered with something that is not a result`);
      } catch (error) {
        // Electron forwards only the message of an error thrown in main: a bug, shown as Internal.
        return internal(error instanceof Error ? error.message : String(error));
      }
    },
    send(channel: SendChannel, args: unknown[]): void {
      bridge.send(channel, args);
    },
    on(event: EventChannel, listener: (payload: unknown) => void): () => void {
      return bridge.on(event, listener);
    },
    onStatus(): () => void {
      return () => undefined;
    },
    lastAttemptMs: null,
    onAttempt(): () => void {
      return () => undefined;
    },
    retryNow(): void {},
    close(): void {
      status = 'closed';
    },
  };
}

/** The browser globals `pickTransport` reads; a parameter so tests can pass their own. */
export interface PageEnvironment {
  greenroom?: PreloadBridge;
  location: { protocol: string; host: string; search: string; pathname: string; hash: string };
  sessionStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  history?: { replaceState(data: unknown, unused: string, url: string): void };
  WebSocket?: new (url: string) => SocketLike;
}

const TOKEN_KEY = 'greenroom.panelToken';

/**
 * The access token from the page URL (`?token=`), kept in sessionStorage and then removed from the
 * address bar, so a reload still connects and a shared screen never shows it.
 */
export function takePageToken(env: PageEnvironment): string {
  const params = new URLSearchParams(env.location.search);
  const fromUrl = params.get('token');
  if (fromUrl === null) {
    return env.sessionStorage?.getItem(TOKEN_KEY) ?? '';
  }
  env.sessionStorage?.setItem(TOKEN_KEY, fromUrl);
  params.delete('token');
  const rest = params.toString();
  env.history?.replaceState(null, '', `${env.location.pathname}${rest ? `?${rest}` : ''}${env.location.hash}`);
  return fromUrl;
}

/** This page's globals (typed loosely so the file also compiles in the Node-side test project). */
function currentPage(): PageEnvironment {
  const page: unknown = globalThis;
  return page as PageEnvironment;
}

/** The preload bridge when running in Electron, else the WebSocket back to the server that served the page. */
export function pickTransport(env: PageEnvironment = currentPage()): PanelConnection {
  if (env.greenroom) {
    return createPreloadTransport(env.greenroom);
  }
  const scheme = env.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createWebSocketTransport({
    url: `${scheme}//${env.location.host}${PANEL_WS_PATH}`,
    token: takePageToken(env),
    ...(env.WebSocket ? { WebSocketImpl: env.WebSocket } : {}),
  });
}

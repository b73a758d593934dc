/**
 * The localtunnel adapter: a public `https://<subdomain>.loca.lt` (or a self-hosted server's) URL in front of
 * the local webhook receiver, kept up across drops. Each attempt is one `openLocaltunnel` call; when it
 * fails or the tunnel later drops, the next attempt is planned with exponential backoff and jitter, one
 * attempt in flight at a time, and stop() cancels whatever is pending.
 */
import { backoffDelay } from '../../../shared/backoff';
import type { Clock } from '../../core/clock';
import { nodeTimer, type SetTimer, type Timer } from '../../core/scheduler';
import { type LocaltunnelClient, openLocaltunnel } from './localtunnel-client';
import type { SelfCheck } from './self-check';
import { assertValidSubdomain } from './subdomain';
import { StatusBroadcaster, type Tunnel, type TunnelLog, type TunnelStatus, type TunnelStatusListener } from './tunnel';

export const DEFAULT_LOCALTUNNEL_HOST = 'https://localtunnel.me';

export interface LocalTunnelDeps {
  /** The receiver's port on this machine. */
  localPort: number;
  /** Where the receiver listens; the client also rewrites the Host header to it. Default 127.0.0.1. */
  localHost?: string;
  /** The stable per-install subdomain (see subdomain.ts). */
  subdomain: string;
  /** The localtunnel server; default https://localtunnel.me. `GREENROOM_TUNNEL_HOST` sets a self-hosted one. */
  host?: string;
  clock: Clock;
  /** Timers for the retries (tests fire them by hand); Node's by default. */
  setTimer?: SetTimer;
  /** [0, 1), for backoff jitter. */
  random?: () => number;
  log?: TunnelLog;
  /** Run after each time the tunnel comes up; its answer is reported as `reachable`. None: not checked. */
  selfCheck?: SelfCheck;
  backoff?: Partial<BackoffOptions>;
  /** Deadline for one attempt (registration + first socket); an I/O deadline, so wall time. Default 15 s. */
  attemptTimeoutMs?: number;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** A connection that stayed up this long starts the backoff afresh when it drops. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000, stableMs: 60_000 };

/** Up to 20 % is taken off each delay (shared/backoff.ts). */
const TUNNEL_SPREAD = 0.2;

/** Localtunnel behind the {@link Tunnel} interface. */
export class LocalTunnel implements Tunnel {
  readonly #options: LocalTunnelDeps;
  readonly #host: string;
  readonly #setTimer: SetTimer;
  readonly #backoff: BackoffOptions;
  readonly #log: TunnelLog;
  readonly #status = new StatusBroadcaster();
  /** Bumped by every attempt and by stop(); callbacks from an older generation are ignored. */
  #generation = 0;
  #running = false;
  #failures = 0;
  #client: LocaltunnelClient | null = null;
  #upSince = 0;
  #retryTimer: Timer | null = null;
  #abort: AbortController | null = null;
  #inFlight: Promise<void> | null = null;

  constructor(options: LocalTunnelDeps) {
    this.#options = options;
    assertValidSubdomain(options.subdomain);
    this.#host = (options.host ?? DEFAULT_LOCALTUNNEL_HOST).replace(/\/+$/, '');
    this.#setTimer = options.setTimer ?? nodeTimer;
    this.#backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.#log = options.log ?? (() => undefined);
  }

  async start(): Promise<void> {
    if (this.#running) {
      return;
    }
    this.#running = true;
    this.#failures = 0;
    await this.#attempt();
  }

  async stop(): Promise<void> {
    if (!this.#running) {
      return;
    }
    this.#running = false;
    this.#generation += 1;
    this.#retryTimer?.cancel();
    this.#retryTimer = null;
    this.#abort?.abort(new Error('tunnel stopped'));
    this.#client?.close();
    this.#client = null;
    await this.#inFlight;
    // A start() during that wait owns the status now.
    if (!this.#running) {
      this.#status.set({ state: 'off' });
    }
  }

  status(): TunnelStatus {
    return this.#status.get();
  }

  onStatus(listener: TunnelStatusListener): () => void {
    return this.#status.subscribe(listener);
  }

  publicUrl(): string | null {
    const status = this.#status.get();
    return status.state === 'up' ? status.url : null;
  }

  // --- Attempts ---

  /** One attempt; the only caller besides start() is the retry timer, so only one is ever in flight. */
  #attempt(): Promise<void> {
    const generation = ++this.#generation;
    this.#status.set({ state: 'connecting', attempt: this.#failures + 1 });
    const abort = new AbortController();
    this.#abort = abort;
    const run = this.#open(abort.signal)
      .then(
        (client) => this.#onUp(generation, client),
        (error: unknown) => {
          if (generation !== this.#generation) {
            return;
          }
          this.#failures += 1;
          this.#planRetry(`could not open the tunnel: ${describe(error)}`);
        },
      )
      .finally(() => {
        if (this.#abort === abort) {
          this.#abort = null;
        }
        if (this.#inFlight === run) {
          this.#inFlight = null;
        }
      });
    this.#inFlight = run;
    return run;
  }

  #open(cancel: AbortSignal): Promise<LocaltunnelClient> {
    const timeout = AbortSignal.timeout(this.#options.attemptTimeoutMs ?? 15_000);
    return openLocaltunnel({
      host: this.#host,
      subdomain: this.#options.subdomain,
      localPort: this.#options.localPort,
      localHost: this.#options.localHost ?? '127.0.0.1',
      signal: AbortSignal.any([cancel, timeout]),
    });
  }

  #onUp(generation: number, client: LocaltunnelClient): void {
    if (generation !== this.#generation) {
      client.close();
      return;
    }
    this.#client = client;
    this.#upSince = this.#options.clock.now();
    const onDrop = (error?: Error): void => this.#onDrop(generation, client, error);
    client.on('error', onDrop);
    client.once('close', onDrop);
    const url = client.url;
    this.#status.set({ state: 'up', url });
    if (client.clientId !== this.#options.subdomain) {
      this.#log(
        `warning: tunnel: the server gave ${url} instead of the subdomain ${this.#options.subdomain}; ` +
          `Kick sends webhooks to the URL in its developer dashboard, so update it there`,
      );
    } else {
      this.#log(`tunnel: up at ${url}`);
    }
    if (this.#options.selfCheck) {
      void this.#check(generation, url, this.#options.selfCheck);
    }
  }

  async #check(generation: number, url: string, selfCheck: SelfCheck): Promise<void> {
    const reachable = await selfCheck(url).catch(() => false);
    if (generation !== this.#generation || this.#client === null) {
      return;
    }
    this.#status.set({ state: 'up', url, checkedAt: this.#options.clock.now(), reachable });
    if (!reachable) {
      this.#log(`warning: tunnel: ${url} is up but did not reach the webhook receiver`);
    }
  }

  /** A socket error or close: drop this client (once, however many sockets report it) and plan a retry. */
  #onDrop(generation: number, client: LocaltunnelClient, error?: Error): void {
    if (generation !== this.#generation || this.#client !== client) {
      return;
    }
    this.#client = null;
    client.close();
    if (this.#options.clock.now() - this.#upSince >= this.#backoff.stableMs) {
      this.#failures = 0;
    }
    this.#failures += 1;
    this.#planRetry(error ? `tunnel dropped: ${error.message}` : 'tunnel closed');
  }

  #planRetry(reason: string): void {
    if (!this.#running) {
      return;
    }
    const retryInMs = backoffDelay(
      this.#failures,
      { ...this.#backoff, spread: TUNNEL_SPREAD },
      this.#options.random ?? Math.random,
    );
    this.#log(`tunnel: ${reason}; retrying in ${retryInMs} ms`);
    this.#status.set({ state: 'down', reason, retryInMs });
    this.#retryTimer = this.#setTimer(() => {
      this.#retryTimer = null;
      if (this.#running) {
        // Failures are reported as status; only a throwing status listener could reject here.
        this.#attempt().catch((error: unknown) => this.#log(`tunnel: retry failed: ${describe(error)}`));
      }
    }, retryInMs);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

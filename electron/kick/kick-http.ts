/**
 * The one place the client touches the network: undici over a keep-alive pool, a timeout on every
 * attempt, bounded exponential backoff with jitter for 429 and 5xx (honouring Retry-After), and Kick's
 * error bodies turned into the error family. Clock, sleep and randomness are injected so tests never wait.
 */
import { backoffDelay } from '../../shared/backoff';
import { Agent, type Dispatcher, errors as undiciErrors, request } from 'undici';
import type { Clock } from '../core/clock';
import { codeForStatus, KickApiError, parseKickErrorBody } from './kick-errors';
import type { RetryPolicy } from './operations';

export interface RetrySettings {
  /** Total attempts including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface KickHttpDeps {
  apiUrl: string;
  authUrl: string;
  clock: Clock;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  retry?: Partial<RetrySettings>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  userAgent?: string;
}

export interface KickRequest {
  operation: string;
  host: 'api' | 'auth';
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: [string, string][];
  json?: unknown;
  form?: Record<string, string>;
  /** Bearer token; omitted for unauthenticated calls and the token endpoint. */
  token?: string;
  retry: RetryPolicy;
  /** True when the request carries a client-generated idempotency key (lets `keyed` calls retry). */
  hasIdempotencyKey?: boolean;
  signal?: AbortSignal;
}

export interface KickResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the text for non-JSON bodies, undefined for an empty body. */
  body: unknown;
}

const DEFAULT_RETRY: RetrySettings = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8_000 };

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      return reject(signal.reason as Error);
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

export class KickHttp {
  readonly #options: KickHttpDeps;
  readonly #retry: RetrySettings;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #sleep: NonNullable<KickHttpDeps['sleep']>;
  readonly #random: () => number;

  constructor(options: KickHttpDeps) {
    this.#options = options;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connections: 8 });
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
  }

  get apiUrl(): string {
    return this.#options.apiUrl;
  }

  get authUrl(): string {
    return this.#options.authUrl;
  }

  async close(): Promise<void> {
    if (this.#ownsDispatcher) {
      await this.#dispatcher.close();
    }
  }

  /** Sends the request, retrying where its policy allows; resolves only on 2xx, otherwise throws KickApiError. */
  async send(req: KickRequest): Promise<KickResponse> {
    const mayRetry = req.retry === 'safe' || (req.retry === 'keyed' && req.hasIdempotencyKey === true);
    for (let attempt = 1; ; attempt++) {
      let outcome: KickResponse | KickApiError;
      try {
        outcome = await this.#attempt(req);
      } catch (error) {
        outcome = this.#transportError(req, error);
      }
      if (!(outcome instanceof KickApiError)) {
        return outcome;
      }
      const retryable =
        outcome.code === 'Ratelimited' ||
        outcome.code === 'ServerError' ||
        outcome.code === 'Network' ||
        outcome.code === 'Timeout';
      if (!mayRetry || !retryable || attempt >= this.#retry.maxAttempts || req.signal?.aborted) {
        throw outcome;
      }
      await this.#sleep(this.#backoffMs(attempt, outcome), req.signal);
    }
  }

  async #attempt(req: KickRequest): Promise<KickResponse> {
    const base = req.host === 'api' ? this.#options.apiUrl : this.#options.authUrl;
    const url = new URL(req.path, base);
    for (const [k, v] of req.query ?? []) {
      url.searchParams.append(k, v);
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.#options.userAgent) {
      headers['user-agent'] = this.#options.userAgent;
    }
    if (req.token) {
      headers.authorization = `Bearer ${req.token}`;
    }
    let body: string | undefined;
    if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    // undici's own header and body timeouts ride its shared timer wheel; an AbortSignal.timeout per call
    // costs a timer each and showed up in the api-client-overhead benchmark.
    const timeoutMs = this.#options.timeoutMs ?? 10_000;
    const res = await request(url, {
      method: req.method,
      headers,
      body,
      signal: req.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: this.#dispatcher,
    });
    const text = await res.body.text();
    const parsed = parseBody(text, res.headers['content-type']);
    const response: KickResponse = { status: res.statusCode, headers: res.headers, body: parsed };
    if (res.statusCode >= 200 && res.statusCode < 300) {
      return response;
    }
    throw this.#statusError(req, response);
  }

  #statusError(req: KickRequest, res: KickResponse): KickApiError {
    const { message, code, detail } = parseKickErrorBody(res.body);
    const kickCode = codeForStatus(res.status);
    const text = [message, detail].filter((s) => s !== undefined && s.length > 0).join(': ');
    const error = new KickApiError(
      kickCode,
      `${req.operation}: Kick answered ${res.status}${text ? ` (${text})` : ''}`,
      {
        operation: req.operation,
        status: res.status,
        kickMessage: detail ? `${message ?? ''}${message ? ': ' : ''}${detail}` : message,
        kickCode: code,
      },
    );
    const retryAfter = parseRetryAfter(res.headers['retry-after'], this.#options.clock.now());
    if (retryAfter !== null) {
      retryAfterMs.set(error, retryAfter);
    }
    return error;
  }

  #transportError(req: KickRequest, error: unknown): KickApiError {
    if (error instanceof KickApiError) {
      return error;
    }
    if (req.signal?.aborted) {
      return new KickApiError('Timeout', `${req.operation}: cancelled`, { operation: req.operation, cause: error });
    }
    const name = error instanceof Error ? error.name : '';
    if (
      name === 'TimeoutError' ||
      name === 'AbortError' ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError
    ) {
      return new KickApiError('Timeout', `${req.operation}: Kick did not answer in time`, {
        operation: req.operation,
        cause: error,
      });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new KickApiError('Network', `${req.operation}: could not reach Kick (${detail})`, {
      operation: req.operation,
      cause: error,
    });
  }

  #backoffMs(attempt: number, error: KickApiError): number {
    const hinted = retryAfterMs.get(error);
    if (hinted !== undefined) {
      return Math.min(hinted, this.#retry.maxDelayMs * 4);
    }
    // At least half the step, so retries spread out but never fire back to back.
    const backoff = { initialMs: this.#retry.baseDelayMs, maxMs: this.#retry.maxDelayMs, spread: 0.5 };
    return backoffDelay(attempt, backoff, this.#random);
  }
}

/** Retry-After hints per error, kept off the public error shape. */
const retryAfterMs = new WeakMap<KickApiError, number>();

/** `Retry-After` as seconds or an HTTP date → milliseconds to wait, or null. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) {
    return null;
  }
  if (/^\d+$/.test(raw.trim())) {
    return Number(raw.trim()) * 1000;
  }
  const date = Date.parse(raw);
  if (Number.isNaN(date)) {
    return null;
  }
  return Math.max(0, date - nowMs);
}

/** JSON whether Kick says `application/json` (what it sends, [reference §1](../../docs/kick-wire-reference.md#1-hosts-and-general-conventions)) or adds a charset, as proxies do. */
function parseBody(text: string, contentType: string | string[] | undefined): unknown {
  if (text.length === 0) {
    return undefined;
  }
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (type?.toLowerCase().includes('json') || /^[[{]/.test(text.trim())) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The one connection to OBS (docs/obs.md#connection-states): a state machine over an injected link factory,
 * clock, scheduler and random source, so every state and transition is a unit test.
 *
 * - `configure(target)` closes the session there is and connects at once (at start, and on every save);
 *   `configure(null)` is "not set up".
 * - A session that ends (OBS quit, crashed, was killed) is `unreachable` at once, then tried again with the
 *   shared backoff, capped short so a restarted OBS is back within seconds. While it retries the state stays
 *   `unreachable` (with `nextTryAt: null` during a try), so the header does not flicker between "connecting"
 *   and "not reachable" on every attempt.
 * - A refused password stops the retries until the connection is saved again: trying the same wrong
 *   password every few seconds would only fill OBS's log.
 * - A connect that hangs (a host that drops packets) and a request OBS never answers are both bounded.
 *
 * Nothing on Greenroom's event path awaits this: chat, alerts, the bot and webhooks never wait for OBS.
 */
import { type Backoff, backoffDelay } from '../../shared/backoff';
import { AppError } from '../../shared/errors';
import { Listeners } from '../../shared/listeners';
import type { ObsConnectionState } from '../../shared/obs';
import type { SetTimer, Timer } from '../core/scheduler';
import {
  type ObsEvents,
  type ObsEventType,
  type ObsLink,
  ObsLinkError,
  type ObsLinkFactory,
  ObsRequestError,
  type ObsRequests,
  type ObsRequestType,
} from './obs-link';

/** Where OBS is, and the password when one is saved. */
export interface ObsTarget {
  host: string;
  port: number;
  password: string | null;
}

/** 1 s, 2 s, 4 s, then every 5 s: OBS restarts in 3–6 s, and a retry to a closed local port costs nothing. */
export const OBS_RECONNECT_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 5_000, spread: 0.3 };
/** A connect (websocket open, Hello, Identify) that has not finished by then is given up as unreachable. */
export const OBS_CONNECT_TIMEOUT_MS = 10_000;
/** A request OBS has not answered by then fails; OBS answers a local request in milliseconds. */
export const OBS_REQUEST_TIMEOUT_MS = 10_000;

export interface ObsConnectionDeps {
  linkFactory: ObsLinkFactory;
  now: () => number;
  setTimer: SetTimer;
  random: () => number;
  log: (line: string) => void;
  backoff?: Backoff;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/** The URL obs-websocket listens on; an IPv6 literal goes in brackets. */
export function obsUrl(host: string, port: number): string {
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `ws://${bracketed}:${port}`;
}

type CallArgs<T extends ObsRequestType> = ObsRequests[T]['in'] extends undefined ? [] : [ObsRequests[T]['in']];

/** Resolves or rejects with `promise`, or rejects with `onTimeout()` after `ms` on `setTimer`. */
function bounded<T>(promise: Promise<T>, ms: number, setTimer: SetTimer, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimer(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        timer.cancel();
        resolve(value);
      },
      (error: unknown) => {
        timer.cancel();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

export class ObsConnection {
  readonly #deps: ObsConnectionDeps;
  readonly #backoff: Backoff;
  readonly #stateListeners: Listeners<[ObsConnectionState]>;
  readonly #sessionListeners: Listeners<[ObsLink | null]>;
  readonly #eventListeners = new Map<ObsEventType, Listeners<[unknown]>>();
  #state: ObsConnectionState = { kind: 'not-set-up' };
  #target: ObsTarget | null = null;
  /** Counts configures, attempts and drops: a late answer from an older one is ignored (and its link closed). */
  #generation = 0;
  #link: ObsLink | null = null;
  #unsubscribeLink: (() => void)[] = [];
  #retry: Timer | null = null;
  /** Tries since the last success. */
  #attempt = 0;
  #stopped = false;

  constructor(deps: ObsConnectionDeps) {
    this.#deps = deps;
    this.#backoff = deps.backoff ?? OBS_RECONNECT_BACKOFF;
    const onListenerError = (error: unknown): void => deps.log(`obs: a listener failed: ${String(error)}`);
    this.#stateListeners = new Listeners(onListenerError);
    this.#sessionListeners = new Listeners(onListenerError);
  }

  state(): ObsConnectionState {
    return this.#state;
  }

  /** Hears every state change. */
  onState(listener: (state: ObsConnectionState) => void): () => void {
    return this.#stateListeners.add(listener);
  }

  /** Hears each session opening (the link) and ending (null): the monitor starts and stops on these. */
  onSession(listener: (link: ObsLink | null) => void): () => void {
    return this.#sessionListeners.add(listener);
  }

  /** Hears one OBS event type from whichever session is open now and every later one. */
  onEvent<E extends ObsEventType>(type: E, listener: (data: ObsEvents[E]) => void): () => void {
    let listeners = this.#eventListeners.get(type);
    if (!listeners) {
      listeners = new Listeners((error) => this.#deps.log(`obs: a ${type} listener failed: ${String(error)}`));
      this.#eventListeners.set(type, listeners);
      const events = listeners;
      if (this.#link) {
        this.#unsubscribeLink.push(this.#link.on(type, (data) => events.emit(data)));
      }
    }
    return listeners.add(listener as (data: unknown) => void);
  }

  /** Connects to `target` now, closing the session there is first; null: not set up. */
  configure(target: ObsTarget | null): void {
    if (this.#stopped) {
      return;
    }
    this.#target = target;
    void this.#drop();
    this.#attempt = 0;
    if (target === null) {
      this.#setState({ kind: 'not-set-up' });
      return;
    }
    this.#connect('connecting');
  }

  /**
   * One request to OBS: ObsNotConnected (ObsWrongPassword after a refused password) when there is no
   * session, ObsRequestFailed with `details.obsCode` when OBS refuses it. A request OBS does not answer in
   * time means the session is gone: it is dropped and retried like a close.
   */
  call<T extends ObsRequestType>(type: T, ...data: CallArgs<T>): Promise<ObsRequests[T]['out']> {
    return this.request(type, data, this.#deps.requestTimeoutMs ?? OBS_REQUEST_TIMEOUT_MS);
  }

  /** {@link call} with its own time limit (the monitor's polls are shorter than an action's). */
  async request<T extends ObsRequestType>(
    type: T,
    data: CallArgs<T>,
    timeoutMs: number,
  ): Promise<ObsRequests[T]['out']> {
    const link = this.#link;
    if (!link || this.#state.kind !== 'connected') {
      throw this.#notConnected();
    }
    const generation = this.#generation;
    try {
      return await bounded(
        link.call(type, ...data),
        timeoutMs,
        this.#deps.setTimer,
        () => new ObsLinkError('unreachable', `OBS did not answer ${type} within ${timeoutMs} ms`),
      );
    } catch (error) {
      if (error instanceof ObsRequestError) {
        throw new AppError('ObsRequestFailed', `OBS could not do ${type}: ${error.message}`, {
          cause: error,
          details: { obsCode: error.code, request: type },
        });
      }
      const message = error instanceof Error ? error.message : String(error);
      if (generation === this.#generation && this.#link === link) {
        this.#lost(message);
      }
      throw new AppError('ObsNotConnected', `OBS: ${message}`, { cause: error });
    }
  }

  /** Closes the session and cancels every timer; nothing happens after. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const closing = this.#drop();
    this.#stateListeners.clear();
    this.#sessionListeners.clear();
    await closing;
  }

  #notConnected(): AppError {
    return this.#state.kind === 'wrong-password'
      ? new AppError('ObsWrongPassword', 'OBS refused the saved password')
      : new AppError('ObsNotConnected', 'OBS is not connected');
  }

  /** Ends the session or attempt there is, and any retry, without a state change. */
  #drop(): Promise<void> {
    this.#generation++;
    if (this.#retry !== null) {
      this.#retry.cancel();
      this.#retry = null;
    }
    const link = this.#link;
    if (link) {
      this.#link = null;
      this.#unsubscribeLink.forEach((unsubscribe) => unsubscribe());
      this.#unsubscribeLink = [];
      this.#sessionListeners.emit(null);
      return link.close().catch(() => undefined);
    }
    return Promise.resolve();
  }

  /** One try; `connecting` at the first, while a retry keeps showing `unreachable`. */
  #connect(shown: 'connecting' | 'unreachable'): void {
    const target = this.#target;
    if (!target || this.#stopped) {
      return;
    }
    this.#attempt++;
    const generation = ++this.#generation;
    if (shown === 'connecting') {
      this.#setState({ kind: 'connecting', attempt: this.#attempt });
    } else if (this.#state.kind === 'unreachable') {
      this.#setState({ ...this.#state, nextTryAt: null });
    }
    const link = this.#deps.linkFactory();
    const timeoutMs = this.#deps.connectTimeoutMs ?? OBS_CONNECT_TIMEOUT_MS;
    bounded(
      link.connect({ url: obsUrl(target.host, target.port), password: target.password }),
      timeoutMs,
      this.#deps.setTimer,
      () => new ObsLinkError('unreachable', `OBS did not finish connecting within ${timeoutMs / 1000} s`),
    ).then(
      (identity) => {
        if (generation !== this.#generation || this.#stopped) {
          void link.close().catch(() => undefined);
          return;
        }
        this.#opened(link, identity.obsVersion, identity.websocketVersion);
      },
      (error: unknown) => {
        void link.close().catch(() => undefined);
        if (generation !== this.#generation || this.#stopped) {
          return;
        }
        this.#failed(error);
      },
    );
  }

  #opened(link: ObsLink, obsVersion: string, websocketVersion: string): void {
    this.#link = link;
    this.#attempt = 0;
    this.#unsubscribeLink = [
      link.onClosed((error) => {
        if (this.#link === link) {
          this.#lost(error.message);
        }
      }),
      ...[...this.#eventListeners].map(([type, listeners]) => link.on(type, (data) => listeners.emit(data))),
    ];
    this.#deps.log(`obs: connected to OBS ${obsVersion} (websocket ${websocketVersion})`);
    this.#setState({ kind: 'connected', obsVersion, websocketVersion, since: this.#deps.now() });
    this.#sessionListeners.emit(link);
  }

  #failed(error: unknown): void {
    if (error instanceof ObsLinkError && error.failure === 'wrong-password') {
      this.#deps.log('obs: OBS refused the password; not retrying until the connection is saved again');
      this.#setState({ kind: 'wrong-password' });
      return;
    }
    const detail = error instanceof Error ? error.message : String(error);
    this.#unreachable(detail);
  }

  /** The session ended or stopped answering: unreachable now, and a retry. */
  #lost(detail: string): void {
    this.#deps.log(`obs: the connection to OBS was lost (${detail}); trying again`);
    void this.#drop();
    this.#attempt = 0;
    this.#unreachable(detail);
    // The drop counts as the first failure: the next retry that fails waits twice as long.
    this.#attempt = 1;
  }

  #unreachable(detail: string): void {
    const delay = backoffDelay(Math.max(1, this.#attempt), this.#backoff, this.#deps.random);
    const now = this.#deps.now();
    const since = this.#state.kind === 'unreachable' ? this.#state.since : now;
    if (this.#state.kind !== 'unreachable') {
      this.#deps.log(`obs: OBS is not reachable (${detail})`);
    }
    this.#setState({ kind: 'unreachable', since, nextTryAt: now + delay, detail });
    this.#retry = this.#deps.setTimer(() => {
      this.#retry = null;
      this.#connect('unreachable');
    }, delay);
  }

  #setState(state: ObsConnectionState): void {
    this.#state = state;
    this.#stateListeners.emit(state);
  }
}

/**
 * The panel's transport in a browser or an OBS dock: the contract over the panel server's WebSocket.
 * Requests carry ids and wait in a pending map with a timeout; the socket reconnects on its own with
 * capped, jittered exponential backoff (never a storm), and stops only when the server says the token is
 * wrong. Event listeners live here, not on the wire (the server pushes every event to every authorized
 * panel), so they survive reconnects untouched; `onStatus('open')` after a gap tells state to reload its
 * snapshot, because events sent while disconnected are gone.
 *
 * A failure of this link is the app's, never Kick's: a drop ends every call at once with `AppUnreachable`,
 * a call made while cut off fails at once the same way (it is never held to run minutes later), and a call
 * main does not answer ends with `AppTimeout` ([design notes](../../../docs/design-notes.md#when-greenroom-is-not-running)).
 * Only calls made before the very first handshake wait for it, since the page starts before its socket.
 */
import { backoffDelay } from '../../../shared/backoff';
import type { ErrorValue } from '../../../shared/errors';
import {
  EVENT_CHANNELS,
  type EventChannel,
  type InvokeChannel,
  type InvokeResult,
  type SendChannel,
} from '../../../shared/ipc-contract';
import type { PanelTransport } from '../../../shared/panel-api';
import { PANEL_CLOSE, parseServerFrame } from '../../../shared/panel-protocol';
import { KeyedListeners, Listeners } from '../../../shared/listeners';

/** `connecting` before the first ready, `reconnecting` after a drop, `unauthorized` and `closed` are final. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'unauthorized' | 'closed';

/** A transport plus what the UI shows about the connection. */
export interface PanelConnection extends PanelTransport {
  readonly status: ConnectionStatus;
  /** Called on every status change; returns the unsubscribe function. */
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /** When the last connection attempt started (ms), or null before any; what "last tried" shows. */
  readonly lastAttemptMs: number | null;
  /** Called as each reconnect attempt starts, with its time; returns the unsubscribe function. */
  onAttempt(listener: (atMs: number) => void): () => void;
  /** While reconnecting: tries now instead of waiting for the backoff step. */
  retryNow(): void;
  /** Stops for good: pending requests fail, no reconnect. */
  close(): void;
}

// Handlers typed through a method so both the DOM WebSocket and the `ws` package's fit (bivariant params).
type Handler<E> = { bivarianceHack(event: E): void }['bivarianceHack'];

/** The slice of the WHATWG WebSocket this transport uses. */
export interface SocketLike {
  onopen: Handler<unknown> | null;
  onmessage: Handler<{ data: unknown }> | null;
  onclose: Handler<{ code: number }> | null;
  onerror: Handler<unknown> | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Timer functions, injected so tests drive backoff and timeouts without waiting. */
export interface TransportTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface WebSocketTransportOptions {
  /** `ws://127.0.0.1:<port>/ws`. */
  url: string;
  /** The panel's access token, sent in the first frame. */
  token: string;
  WebSocketImpl?: new (url: string) => SocketLike;
  timers?: TransportTimers;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** How long a request may wait for its answer, per channel. */
  timeoutMs?: (channel: InvokeChannel) => number;
  /** First and largest reconnect delay (defaults 500 ms and 15 s). */
  backoff?: { initialMs: number; maxMs: number };
  /** Frames held before the first handshake; beyond this, requests fail at once. */
  maxQueued?: number;
  /** Wall-clock time, for `lastAttemptMs`. */
  now?: () => number;
}

type Pending = { resolve: (result: InvokeResult<InvokeChannel>) => void; timer: unknown };

/** Sign-in waits for the user in the system browser; main times that attempt out itself. */
const defaultTimeoutMs = (channel: InvokeChannel): number => (channel === 'auth:start-login' ? 15 * 60_000 : 30_000);

const failure = (error: ErrorValue): InvokeResult<InvokeChannel> => ({ ok: false, error });
const unreachable = (message: string): ErrorValue => ({ code: 'AppUnreachable', message });

/** Opens the WebSocket transport; it connects at once and keeps itself connected until `close()`. */
export function createWebSocketTransport(options: WebSocketTransportOptions): PanelConnection {
  const Impl =
    options.WebSocketImpl ?? (globalThis as unknown as { WebSocket: new (url: string) => SocketLike }).WebSocket;
  const timers: TransportTimers = options.timers ?? {
    setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  };
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 500, maxMs: 15_000 };
  const maxQueued = options.maxQueued ?? 200;
  const now = options.now ?? (() => Date.now());

  const pending = new Map<number, Pending>();
  /** Requests and sends written while not ready, in order; each invoke is also in `pending`. */
  let queue: { frame: string; id?: number }[] = [];
  const listeners = new KeyedListeners<EventChannel, [unknown]>();
  const statusListeners = new Listeners<[ConnectionStatus]>();
  const attemptListeners = new Listeners<[number]>();
  let lastAttemptMs: number | null = null;
  let status: ConnectionStatus = 'connecting';
  let socket: SocketLike | null = null;
  let ready = false;
  let nextId = 1;
  let attempt = 0;
  let reconnectTimer: unknown = null;

  const setStatus = (next: ConnectionStatus): void => {
    if (next !== status) {
      status = next;
      statusListeners.emit(next);
    }
  };

  const settle = (id: number, result: InvokeResult<InvokeChannel>): void => {
    const entry = pending.get(id);
    if (entry) {
      pending.delete(id);
      timers.clearTimeout(entry.timer);
      entry.resolve(result);
    }
  };

  const failAll = (error: ErrorValue, which: 'sent' | 'all'): void => {
    const queuedIds = new Set(queue.map((q) => q.id));
    for (const id of [...pending.keys()]) {
      if (which === 'all' || !queuedIds.has(id)) {
        settle(id, failure(error));
      }
    }
    if (which === 'all') {
      queue = [];
    }
  };

  const dispatch = (event: string, payload: unknown): void => {
    if (!(EVENT_CHANNELS as readonly string[]).includes(event)) {
      return;
    }
    listeners.emit(event as EventChannel, payload);
  };

  const onData = (data: unknown): void => {
    const frame = typeof data === 'string' ? parseServerFrame(data) : null;
    if (frame?.type === 'ready') {
      ready = true;
      attempt = 0;
      const waiting = queue;
      queue = [];
      for (const item of waiting) {
        socket?.send(item.frame);
      }
      setStatus('open');
    } else if (frame?.type === 'result') {
      settle(frame.id, frame.result as InvokeResult<InvokeChannel>);
    } else if (frame?.type === 'event') {
      dispatch(frame.event, frame.payload);
    } else if (frame?.type === 'events') {
      for (const { event, payload } of frame.events) {
        dispatch(event, payload);
      }
    }
  };

  const onClosed = (code: number): void => {
    socket = null;
    ready = false;
    if (status === 'closed') {
      return;
    }
    if (code === PANEL_CLOSE.unauthorized) {
      failAll({ code: 'ForbiddenSender', message: 'the panel access token was refused' }, 'all');
      setStatus('unauthorized');
      return;
    }
    // A request already written may or may not have run; it fails rather than being sent twice. One still
    // queued fails too: the streamer acted while Greenroom was down and must not see it happen minutes later.
    failAll(unreachable('the connection to Greenroom was lost'), 'all');
    attempt += 1;
    // At least half the step, so many docks restarting together spread out but never spin.
    const delay = backoffDelay(attempt, { initialMs, maxMs, spread: 0.5 }, random);
    setStatus('reconnecting');
    reconnectTimer = timers.setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, delay);
  };

  function connect(): void {
    lastAttemptMs = now();
    if (attempt > 0) {
      attemptListeners.emit(lastAttemptMs);
    }
    const s = new Impl(options.url);
    socket = s;
    s.onopen = () => s.send(JSON.stringify({ type: 'hello', token: options.token }));
    s.onmessage = (event) => {
      if (s === socket) {
        onData(event.data);
      }
    };
    s.onclose = (event) => {
      if (s === socket) {
        onClosed(event.code);
      }
    };
    s.onerror = () => undefined; // a close event always follows
  }

  const write = (frame: string, id?: number): boolean => {
    if (ready && socket) {
      socket.send(frame);
      return true;
    }
    if (queue.length >= maxQueued) {
      return false;
    }
    queue.push(id === undefined ? { frame } : { frame, id });
    return true;
  };

  connect();

  return {
    get status() {
      return status;
    },
    invoke(channel: InvokeChannel, args: unknown[]): Promise<InvokeResult<InvokeChannel>> {
      if (status !== 'open' && status !== 'connecting') {
        return Promise.resolve(failure(unreachable(`${channel}: not connected to Greenroom (${status})`)));
      }
      const id = nextId++;
      const frame = JSON.stringify({ type: 'invoke', id, channel, args });
      return new Promise((resolve) => {
        const ms = timeoutMs(channel);
        const timer = timers.setTimeout(() => {
          queue = queue.filter((q) => q.id !== id);
          settle(
            id,
            failure({ code: 'AppTimeout', message: `${channel}: no answer from Greenroom in ${ms / 1000} s` }),
          );
        }, ms);
        pending.set(id, { resolve, timer });
        if (!write(frame, id)) {
          settle(id, failure(unreachable(`${channel}: not connected to Greenroom (too many calls waiting)`)));
        }
      });
    },
    send(channel: SendChannel, args: unknown[]): void {
      if (status === 'open' || status === 'connecting') {
        write(JSON.stringify({ type: 'send', channel, args }));
      }
    },
    on(event: EventChannel, listener: (payload: unknown) => void): () => void {
      return listeners.add(event, listener);
    },
    onStatus(listener: (status: ConnectionStatus) => void): () => void {
      return statusListeners.add(listener);
    },
    get lastAttemptMs() {
      return lastAttemptMs;
    },
    onAttempt(listener: (atMs: number) => void): () => void {
      return attemptListeners.add(listener);
    },
    retryNow(): void {
      if (status === 'reconnecting' && reconnectTimer !== null) {
        timers.clearTimeout(reconnectTimer);
        reconnectTimer = null;
        connect();
      }
    },
    close(): void {
      setStatus('closed');
      if (reconnectTimer !== null) {
        timers.clearTimeout(reconnectTimer);
        reconnectTimer = null;
      }
      const s = socket;
      socket = null;
      s?.close(1000, 'panel closed');
      failAll(unreachable('the panel connection was closed'), 'all');
    },
  };
}

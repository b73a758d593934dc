/**
 * The real `ObsLink`: obs-websocket-js over obs-websocket 5, JSON subprotocol. It turns the library's
 * errors into the port's two failures and OBS's refusals into `ObsRequestError`, bounds every request,
 * and checks every response and event against `obs-wire.ts` (docs/obs.md#obs-wire-facts).
 *
 * - Close code 4009 is OBS refusing the password; OBS sends it too when it asks for a password and none
 *   was given. Every other way a connect fails or a session ends is `unreachable`.
 * - `onClosed` is for a session that ended without `close()`: OBS quit, crashed, or the network dropped.
 * - obs-websocket-js forgets a request that is in flight when the socket closes (its promise never
 *   settles), so this link keeps its own list and fails each one as unreachable.
 * - The password is handed to the library and nowhere else: never logged, never put in an error.
 * - OBS's own text (a refusal's comment, its version strings) is cut to `OBS_TEXT_MAX` before it reaches an
 *   error, the connection state or a log, and an event in a shape Greenroom does not know is logged once per
 *   event type, the rest counted in one line when the session ends: a hostile or broken server cannot flood
 *   the panel or the log (docs/obs.md#obs-wire-facts).
 */
import { OBSWebSocket, OBSWebSocketError } from 'obs-websocket-js/json';
import { nodeTimer, type SetTimer, type Timer } from '../core/scheduler';
import {
  type ObsEvents,
  type ObsEventType,
  type ObsIdentity,
  type ObsLink,
  ObsLinkError,
  type ObsLinkFactory,
  ObsRequestError,
  type ObsRequests,
  type ObsRequestType,
} from './obs-link';
import { cutText, firstIssue, OBS_EVENT_SCHEMAS, OBS_RESPONSE_SCHEMAS, OBS_TEXT_MAX } from './obs-wire';

/** OBS answers a local request in milliseconds; one not answered by then is treated as OBS gone. */
export const OBS_LINK_REQUEST_TIMEOUT_MS = 5_000;
/** A connect (socket open, Hello, Identify) to a host that drops packets would otherwise hang for minutes. */
export const OBS_LINK_CONNECT_TIMEOUT_MS = 10_000;
/** obs-websocket's close code for a refused (or missing) password (docs/obs.md#obs-wire-facts). */
export const OBS_CLOSE_AUTHENTICATION_FAILED = 4009;

export interface ObsWebSocketLinkDeps {
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Timers for the timeouts; real ones unless a test injects its own. */
  setTimer?: SetTimer;
  /** One line for the app log (an event OBS sent in a shape Greenroom does not know). */
  log?: (line: string) => void;
}

/** The close code of a failed connect, when obs-websocket-js got as far as one. */
function closeCodeOf(error: unknown): number | null {
  return error instanceof OBSWebSocketError && error.code > 0 ? error.code : null;
}

function describe(error: unknown): string {
  const code = closeCodeOf(error);
  const message = cutText(error instanceof Error ? error.message : String(error), OBS_TEXT_MAX, '…');
  // One flat clause ("connection failed, close code 1006"): it is quoted inside the log's own sentence.
  return [message || 'connection failed', code === null ? '' : `close code ${code}`].filter(Boolean).join(', ');
}

/** Makes a fresh real link per session. */
export function obsWebSocketLinkFactory(options: ObsWebSocketLinkDeps = {}): ObsLinkFactory {
  return () => createObsWebSocketLink(options);
}

export function createObsWebSocketLink(options: ObsWebSocketLinkDeps = {}): ObsLink {
  const requestTimeoutMs = options.requestTimeoutMs ?? OBS_LINK_REQUEST_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? OBS_LINK_CONNECT_TIMEOUT_MS;
  const setTimer = options.setTimer ?? nodeTimer;
  const log = options.log ?? (() => undefined);
  const client = new OBSWebSocket();
  const closedListeners = new Set<(error: ObsLinkError) => void>();
  const pending = new Set<(error: ObsLinkError) => void>();
  let state: 'new' | 'connecting' | 'open' | 'closed' = 'new';
  let closing = false;
  /** Event types already logged as malformed this session, and how many more were dropped unlogged. */
  const malformedLogged = new Set<ObsEventType>();
  let malformedUnlogged = 0;

  /** The session ended: fail what is in flight, and tell the listeners unless `close()` asked for it. */
  function ended(error: ObsLinkError): void {
    if (state === 'closed') {
      return;
    }
    const wasOpen = state === 'open';
    state = 'closed';
    if (malformedUnlogged > 0) {
      log(`OBS sent ${malformedUnlogged} more events in a shape Greenroom does not know; ignored`);
      malformedUnlogged = 0;
    }
    for (const reject of [...pending]) {
      reject(error);
    }
    pending.clear();
    if (wasOpen && !closing) {
      for (const listener of [...closedListeners]) {
        listener(error);
      }
    }
  }

  client.on('ConnectionClosed', (error: OBSWebSocketError) => {
    ended(new ObsLinkError('unreachable', `OBS closed the connection: ${describe(error)}`, closeCodeOf(error)));
  });

  const link: ObsLink = {
    async connect({ url, password }): Promise<ObsIdentity> {
      if (state !== 'new') {
        throw new Error('an ObsLink is used for one session: make a new one to connect again');
      }
      state = 'connecting';
      let timer: Timer | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimer(
          () => reject(new ObsLinkError('unreachable', `OBS did not answer at ${url} within ${connectTimeoutMs} ms`)),
          connectTimeoutMs,
        );
      });
      try {
        const identified = await Promise.race([client.connect(url, password ?? undefined), timeout]);
        if (closing) {
          throw new ObsLinkError('unreachable', 'the connection was closed while it opened');
        }
        state = 'open';
        const version = await link.call('GetVersion');
        return {
          obsVersion: cutText(version.obsVersion, OBS_TEXT_MAX, '…'),
          websocketVersion: cutText(version.obsWebSocketVersion, OBS_TEXT_MAX, '…'),
          rpcVersion: identified.negotiatedRpcVersion,
        };
      } catch (error) {
        state = 'closed';
        await client.disconnect().catch(() => undefined);
        if (error instanceof ObsLinkError || error instanceof ObsRequestError) {
          throw error;
        }
        const code = closeCodeOf(error);
        if (code === OBS_CLOSE_AUTHENTICATION_FAILED) {
          throw new ObsLinkError('wrong-password', 'OBS refused the password', code, error);
        }
        throw new ObsLinkError('unreachable', `Could not connect to OBS at ${url}: ${describe(error)}`, code, error);
      } finally {
        timer?.cancel();
      }
    },

    async call<T extends ObsRequestType>(
      type: T,
      ...data: ObsRequests[T]['in'] extends undefined ? [] : [ObsRequests[T]['in']]
    ): Promise<ObsRequests[T]['out']> {
      if (state !== 'open') {
        throw new ObsLinkError('unreachable', `${type}: not connected to OBS`);
      }
      let timer: Timer | undefined;
      let fail: (error: ObsLinkError) => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => {
        fail = reject;
        pending.add(reject);
        timer = setTimer(
          () => reject(new ObsLinkError('unreachable', `OBS did not answer ${type} within ${requestTimeoutMs} ms`)),
          requestTimeoutMs,
        );
      });
      let response: unknown;
      try {
        response = await Promise.race([client.call(type, data[0] as never), stopped]);
      } catch (error) {
        if (error instanceof ObsLinkError) {
          throw error;
        }
        if (error instanceof OBSWebSocketError) {
          throw new ObsRequestError(type, error.code, cutText(error.message, OBS_TEXT_MAX, '…'));
        }
        // The library throws a plain Error when the socket went away between the check above and the send.
        throw new ObsLinkError('unreachable', `${type}: ${describe(error)}`, null, error);
      } finally {
        timer?.cancel();
        pending.delete(fail);
      }
      const parsed = OBS_RESPONSE_SCHEMAS[type].safeParse(response);
      if (!parsed.success) {
        throw new ObsRequestError(
          type,
          0,
          `OBS answered in a shape Greenroom does not know (${firstIssue(parsed.error)})`,
        );
      }
      return parsed.data;
    },

    on<E extends ObsEventType>(type: E, listener: (data: ObsEvents[E]) => void): () => void {
      const handler = (data: unknown): void => {
        const parsed = OBS_EVENT_SCHEMAS[type].safeParse(data);
        if (parsed.success) {
          listener(parsed.data);
        } else if (malformedLogged.has(type)) {
          malformedUnlogged += 1;
        } else {
          malformedLogged.add(type);
          log(`OBS sent ${type} in a shape Greenroom does not know (${firstIssue(parsed.error)}); ignored`);
        }
      };
      client.on(type, handler as never);
      return () => void client.off(type, handler as never);
    },

    onClosed(listener) {
      closedListeners.add(listener);
      return () => void closedListeners.delete(listener);
    },

    async close(): Promise<void> {
      closing = true;
      await client.disconnect().catch(() => undefined);
      ended(new ObsLinkError('unreachable', 'closed'));
    },
  };
  return link;
}

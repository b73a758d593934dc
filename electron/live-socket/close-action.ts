/**
 * What to do when Kick's live socket closes, by close code ([reference §10.1](../../docs/kick-wire-reference.md#101-connection),
 * the close-code table): Pusher's codes as pusher-js reads them, Centrifugo's by its own ranges. Codes Greenroom
 * makes itself (no handshake in time, no frame for too long) are in {@link LOCAL_CLOSE}.
 */
import type { LiveProvider } from './live-transport';

export type CloseAction =
  /** Reconnect without waiting (a server asking for it); waits with the backoff when it keeps happening. */
  | 'now'
  /** Reconnect after the shared backoff. */
  | 'backoff'
  /** Do not reconnect: the server refused this app or this client for good. */
  | 'stop';

/** Close codes Greenroom uses for sessions it ends itself; both mean "the line is dead". */
export const LOCAL_CLOSE = { handshakeTimeout: 4900, silent: 4901 } as const;

export function closeAction(provider: LiveProvider, code: number): CloseAction {
  if (code === LOCAL_CLOSE.handshakeTimeout || code === LOCAL_CLOSE.silent) {
    return 'backoff';
  }
  if (provider === 'centrifugo') {
    // Centrifugo: 3500–3999 and 4500–4999 are final, everything else is worth another try.
    return (code >= 3500 && code <= 3999) || (code >= 4500 && code <= 4999) ? 'stop' : 'backoff';
  }
  if (code === 4000) {
    // "SSL only": the next session goes over TLS, which is all Greenroom ever uses for Kick.
    return 'now';
  }
  if (code >= 4001 && code <= 4099) {
    return 'stop';
  }
  if (code >= 4200 && code <= 4299) {
    return 'now';
  }
  if (code >= 4300) {
    // pusher-js treats codes it does not know as refusals; a retry later costs little and may find a new key.
    return 'backoff';
  }
  // 4100–4199 (over capacity), 1002–1004, a plain close and a cut line.
  return 'backoff';
}

/**
 * The one small port every transport of Kick's live socket sits behind ([reference §10.1](../../docs/kick-wire-reference.md#101-connection)):
 * Pusher protocol 7 (`pusher-transport.ts`, on pusher-js) and Centrifugo (`centrifugo-transport.ts`, on
 * centrifuge). A session is one socket: it opens, hands over frames, and closes once with a code. Retrying is
 * never the library's: `live-connection.ts` decides by the close code, with the shared backoff, and opens a
 * new session, so both transports reconnect alike and a test can script every step.
 */

/** Where to connect, as discovery or the fallback chose it. */
export type LiveTarget =
  | {
      provider: 'pusher';
      /** `wss://ws-us2.pusher.com` or a stand-in (`ws://127.0.0.1:port`); the path `/app/<key>` is added. */
      socketUrl: string;
      key: string;
      cluster: string;
      /** Whether Kick's discovery named the key, or the known key stood in. */
      keySource: 'discovered' | 'fallback';
    }
  | {
      provider: 'centrifugo';
      /** The full websocket URL, `…/connection/websocket`. */
      url: string;
      /** A connection token, asked for once per session. */
      token: string;
      keySource: 'discovered';
    };

export type LiveProvider = LiveTarget['provider'];

export interface TransportHandlers {
  /** The handshake is done; subscriptions are sent. */
  onOpen(): void;
  /** One frame: the text the socket sent, or an envelope object the library already split. */
  onFrame(frame: unknown, channel: string | null): void;
  /** Any frame, pings and pongs included, that the library answers itself: the line is alive. */
  onActivity(): void;
  /** The session is over: called once, with the websocket close code (1006 for a cut connection). */
  onClose(code: number, reason: string): void;
}

export interface TransportSession {
  /** Ends the session without calling `onClose`. */
  close(): void;
}

/** Opens one session to `target`, subscribed to `channels`. */
export type LiveTransport = (
  target: LiveTarget,
  channels: readonly string[],
  handlers: TransportHandlers,
) => TransportSession;

export type LiveTransports = Readonly<Record<LiveProvider, LiveTransport>>;

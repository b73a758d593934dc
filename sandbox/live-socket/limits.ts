/**
 * The bounds on Kick's live socket in the sandbox ([what they are](../../docs/sandbox.md#bounds-on-the-socket)):
 * whoever reaches the port decides every byte, so each connection is bounded like the other servers.
 */
export interface LiveSocketLimits {
  /** Sockets open at once, both providers together; more are closed as they arrive. */
  maxConnections: number;
  /** The largest frame a client may send; a larger one closes the connection (1009). */
  maxFrameBytes: number;
  /** Channels one connection may hold; more are refused one by one. */
  maxSubscriptions: number;
  /** Frames a client may send per window before the connection is closed as a flood. */
  maxFramesPerWindow: number;
  windowMs: number;
  /** Pusher's `activity_timeout`, seconds: the server pings after this much silence from the client. */
  activityTimeoutSeconds: number;
  /** How long a ping may go unanswered before the connection is closed (Pusher 4201). */
  pongTimeoutMs: number;
  /** Centrifugo: how long after opening the `connect` command must come. */
  handshakeTimeoutMs: number;
  /** Centrifugo: the `ping` interval the server announces, seconds. */
  centrifugoPingSeconds: number;
}

export const DEFAULT_LIVE_SOCKET_LIMITS: LiveSocketLimits = {
  maxConnections: 64,
  maxFrameBytes: 16 * 1024,
  maxSubscriptions: 100,
  maxFramesPerWindow: 200,
  windowMs: 10_000,
  activityTimeoutSeconds: 120,
  pongTimeoutMs: 30_000,
  handshakeTimeoutMs: 10_000,
  centrifugoPingSeconds: 25,
};

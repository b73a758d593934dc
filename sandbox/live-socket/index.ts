/**
 * Kick's live socket in the sandbox ([what it plays](../../docs/sandbox.md#kicks-live-socket-in-the-sandbox)):
 * the socket server (Pusher protocol 7 and Centrifugo) and the web host (discovery, token, channel lookup),
 * fed by the same world as the webhooks: every event the world announces goes out on the socket at once,
 * while its webhook waits in the delivery queue.
 */
import type { SandboxState } from '../state';
import { serve, type RunningServer } from '../http/serve';
import { Router } from '../http/router';
import { FrameLog } from './frame-log';
import { framesForEvent, type LiveFrame } from './frames';
import { LiveHub } from './live-hub';
import { DEFAULT_LIVE_SOCKET_LIMITS, type LiveSocketLimits } from './limits';
import { type LiveSocketServer, startLiveSocketServer } from './socket-server';
import { ConnectionTokens, registerWebRoutes } from './web-routes';

export interface LiveSocketOptions {
  state: SandboxState;
  host: string;
  socketPort: number;
  webPort: number;
  limits?: Partial<LiveSocketLimits>;
  log: (line: string) => void;
}

export interface LiveSocket {
  hub: LiveHub;
  /** The frames sent, with when (`GET /live-socket/frames`). */
  frames: FrameLog;
  /** Stands in for `wss://ws-us2.pusher.com` and Kick's Centrifugo host: `ws://127.0.0.1:<port>`. */
  socketUrl: string;
  /** Stands in for `https://web.kick.com` and `https://kick.com`'s `/api/v2`: `http://127.0.0.1:<port>`. */
  webUrl: string;
  close(): Promise<void>;
}

export async function startLiveSocket(options: LiveSocketOptions): Promise<LiveSocket> {
  const { state, log } = options;
  const hub = new LiveHub();
  const limits: LiveSocketLimits = { ...DEFAULT_LIVE_SOCKET_LIMITS, ...options.limits };
  const now = (): number => state.now();
  const tokens = new ConnectionTokens(now);
  const socket: LiveSocketServer = await startLiveSocketServer({
    hub,
    limits,
    host: options.host,
    port: options.socketPort,
    checkToken: (token) => tokens.valid(token),
    now,
    log,
  });
  let web: RunningServer;
  try {
    const router = new Router();
    registerWebRoutes(router, { state, hub, tokens, socketUrl: () => socket.url });
    const jsonError = (status: number, message: string) => () => ({ status, body: { message } });
    web = await serve({
      router,
      host: options.host,
      port: options.webPort,
      onError: (error) => log(`sandbox: web host handler error: ${String(error)}`),
      fallback: {
        notFound: jsonError(404, 'Not found'),
        methodNotAllowed: jsonError(405, 'Method not allowed'),
        serverError: jsonError(500, 'Server error'),
        tooLarge: jsonError(413, 'Request too large'),
      },
    });
  } catch (error) {
    await socket.close();
    throw error;
  }
  const frames = new FrameLog();
  // Timed before it goes out: the moment a chat line's frame leaves is when the socket path starts.
  const publish = (frame: LiveFrame): void => {
    const at = now();
    frames.record(frame, at, hub.publish(frame));
  };
  const offEvent = state.onEvent((event) => {
    // Nobody listening (most of a chat storm in a test that does not read the socket): build no frames.
    if (hub.sessions.size === 0) {
      return;
    }
    for (const frame of framesForEvent(state, event)) {
      publish(frame);
    }
  });
  const offLive = state.onLiveFrame(publish);
  return {
    hub,
    frames,
    socketUrl: socket.url,
    webUrl: web.url,
    close: async () => {
      offEvent();
      offLive();
      await Promise.all([socket.close(), web.close()]);
    },
  };
}

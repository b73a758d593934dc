/**
 * The Pusher protocol 7 transport on pusher-js ([reference §10.1](../../docs/kick-wire-reference.md#101-connection)).
 * Thin on purpose: one Pusher client is one session. pusher-js does the handshake, subscribes after it, and
 * keeps the heartbeat (answering `pusher:ping`, pinging after a quiet spell, giving the pong 30 s). Where pusher-js
 * would reconnect by itself, or gives up, the session reports the close code instead and the client is
 * disconnected, so pusher-js's own retrying never runs beside `live-connection.ts`'s.
 */
import Pusher from 'pusher-js';
import type { LiveTarget, LiveTransport, TransportHandlers } from './live-transport';

/** pusher-js's defaults, written out: ping after 120 s of quiet, then wait 30 s for the pong. */
export const PUSHER_HEARTBEAT = { activityTimeoutMs: 120_000, pongTimeoutMs: 30_000 } as const;

type PusherTarget = Extract<LiveTarget, { provider: 'pusher' }>;

interface PusherFrame {
  event: string;
  data?: unknown;
  channel?: string;
}

export const pusherTransport: LiveTransport = (target, channels, handlers) => {
  if (target.provider !== 'pusher') {
    throw new Error(`the Pusher transport cannot connect to ${target.provider}`);
  }
  return openPusher(target, channels, handlers);
};

function openPusher(target: PusherTarget, channels: readonly string[], handlers: TransportHandlers) {
  const url = new URL(target.socketUrl);
  const tls = url.protocol === 'wss:' || url.protocol === 'https:';
  const port = url.port === '' ? (tls ? 443 : 80) : Number(url.port);
  const pusher = new Pusher(target.key, {
    cluster: target.cluster,
    wsHost: url.hostname,
    wsPort: port,
    wssPort: port,
    forceTLS: tls,
    enabledTransports: ['ws'],
    disableStats: true,
    activityTimeout: PUSHER_HEARTBEAT.activityTimeoutMs,
    pongTimeout: PUSHER_HEARTBEAT.pongTimeoutMs,
  });
  let done = false;
  let lastCode: number | null = null;
  const finish = (code: number, reason: string) => {
    if (done) {
      return;
    }
    done = true;
    // Not from inside pusher-js's own call: it may go on to change its state after calling out.
    queueMicrotask(() => pusher.disconnect());
    handlers.onClose(code, reason);
  };

  pusher.connection.bind('error', (error: { error?: { data?: { code?: unknown; message?: unknown } } }) => {
    const code = error?.error?.data?.code;
    if (typeof code === 'number') {
      lastCode = code;
    }
  });
  pusher.connection.bind('state_change', ({ current }: { previous: string; current: string }) => {
    if (done) {
      return;
    }
    if (current === 'connected') {
      handlers.onOpen();
    } else if (current === 'disconnected' || current === 'failed' || current === 'unavailable') {
      finish(lastCode ?? 1006, lastCode === null ? 'connection lost' : '');
    }
  });
  // pusher-js schedules every reconnect of its own through this one method (after a lost line, a 4000, a
  // 4100 or a 4200); reporting the close there instead means its retry never runs beside ours, and a lost line
  // is reported at once rather than after its one-second wait.
  (pusher.connection as unknown as { retryIn(delay: number): void }).retryIn = () =>
    finish(lastCode ?? 1006, lastCode === null ? 'connection lost' : '');
  pusher.connection.bind('message', (frame: PusherFrame) => {
    if (done) {
      return;
    }
    handlers.onActivity();
    if (frame.event !== 'pusher:pong' && frame.event !== 'pusher:ping') {
      handlers.onFrame({ event: frame.event, data: frame.data, channel: frame.channel }, frame.channel ?? null);
    }
  });
  for (const channel of channels) {
    pusher.subscribe(channel);
  }
  pusher.connect();
  return {
    close: () => {
      done = true;
      pusher.disconnect();
    },
  };
}

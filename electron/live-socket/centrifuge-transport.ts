/**
 * The Centrifugo transport on centrifuge ([reference §10.1](../../docs/kick-wire-reference.md#101-connection),
 * Centrifugo). Thin on purpose: one Centrifuge client is one session. The library connects with the token,
 * subscribes and answers the server's pings; each publication's data is the same `{event, data}` envelope Pusher
 * sends, handed over with its channel. The first time the client leaves `connected` (or gives up before it), the
 * session reports a close code and the client is disconnected, so the library's own retrying never runs beside
 * `live-connection.ts`'s.
 */
import { Centrifuge } from 'centrifuge';
import WebSocket from 'ws';
import { LOCAL_CLOSE } from './close-action';
import type { LiveTransport } from './live-transport';

/**
 * The largest frame taken, in bytes: Kick's are a few kilobytes, and `ws` would otherwise read up to 100 MiB into
 * main. Several publications may share one frame, so this is well above the longest one `data`.
 */
export const CENTRIFUGO_MAX_PAYLOAD_BYTES = 1024 * 1024;

/** centrifuge's own codes (below 100) as the websocket close codes `close-action.ts` reads. */
function closeCode(code: number, disconnected: boolean): number {
  if (code >= 100) {
    return code;
  }
  if (disconnected) {
    // unauthorized, bad protocol, message too large: final, as Centrifugo's 3500s are.
    return 3500 + code;
  }
  return code === 2 ? LOCAL_CLOSE.silent : 1006;
}

export const centrifugeTransport: LiveTransport = (target, channels, handlers) => {
  if (target.provider !== 'centrifugo') {
    throw new Error(`the Centrifugo transport cannot connect to ${target.provider}`);
  }
  // Every frame, the server's `{}` pings included, shows the line is alive.
  class WatchedWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      // A frame past the limit closes the line (1009) rather than being read into main.
      super(address, protocols, { maxPayload: CENTRIFUGO_MAX_PAYLOAD_BYTES });
      this.on('message', () => {
        if (!done) {
          handlers.onActivity();
        }
      });
    }
  }
  const client = new Centrifuge(target.url, { token: target.token, websocket: WatchedWebSocket });
  let open = false;
  let done = false;
  const finish = (code: number, reason: string) => {
    if (done) {
      return;
    }
    done = true;
    client.disconnect();
    handlers.onClose(code, reason);
  };
  client.on('connected', () => {
    open = true;
    handlers.onOpen();
  });
  client.on('connecting', (ctx) => {
    // The first `connecting` is the connect call itself; any later one is the line going down.
    if (open || ctx.code !== 0) {
      finish(closeCode(ctx.code, false), ctx.reason);
    }
  });
  client.on('disconnected', (ctx) => {
    if (ctx.code !== 0) {
      finish(closeCode(ctx.code, true), ctx.reason);
    }
  });
  for (const channel of channels) {
    const subscription = client.newSubscription(channel);
    subscription.on('publication', (ctx) => {
      if (!done) {
        handlers.onFrame(ctx.data, channel);
      }
    });
    subscription.subscribe();
  }
  client.connect();
  return {
    close: () => {
      done = true;
      client.disconnect();
    },
  };
};

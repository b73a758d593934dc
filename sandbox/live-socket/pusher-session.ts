/**
 * Pusher protocol 7, server side, as Kick's socket speaks it ([reference §10.1](../../docs/kick-wire-reference.md#101-connection);
 * [sandbox facts](../../docs/sandbox.md#pusher-protocol-7)):
 * `connection_established` with `data` a JSON string, public subscriptions with or without `auth`, ping and
 * pong both ways, and `pusher:error` then a close with Pusher's codes. Event frames carry `data` as a JSON
 * string. Every client frame is untrusted: a bad one is answered, counted and never thrown.
 */
import { randomInt } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import type { LiveFrame } from './frames';
import { PUSHER_APP_KEY } from './ids';
import { checkChannelName, type DropCode, type LiveHub, type LiveSession } from './live-hub';
import type { LiveSocketLimits } from './limits';
import { FrameBudget, Watchdog } from './session-timers';

/** Sends `pusher:error` and closes with the same code, as a Pusher server refuses a connection. */
export function refusePusher(ws: WebSocket, code: number, message: string): void {
  ws.send(JSON.stringify({ event: 'pusher:error', data: { code, message } }));
  ws.close(code, message);
}

/** Checks the `/app/<key>?protocol=7` URL; null when it is fine, else the Pusher code and message. */
export function checkPusherUrl(url: URL): { code: number; message: string } | null {
  const key = /^\/app\/([^/]+)$/.exec(url.pathname)?.[1];
  if (key !== PUSHER_APP_KEY) {
    return { code: 4001, message: 'App key not in this cluster' };
  }
  const protocol = url.searchParams.get('protocol');
  if (protocol === null) {
    return { code: 4008, message: 'No protocol version supplied' };
  }
  if (protocol !== '7') {
    return { code: 4007, message: `Unsupported protocol version ${protocol.slice(0, 16)}` };
  }
  return null;
}

export class PusherSession implements LiveSession {
  readonly provider = 'pusher';
  readonly channels = new Set<string>();
  readonly #ws: WebSocket;
  readonly #hub: LiveHub;
  readonly #limits: LiveSocketLimits;
  readonly #budget: FrameBudget;
  readonly #watchdog: Watchdog;

  constructor(ws: WebSocket, hub: LiveHub, limits: LiveSocketLimits, now: () => number) {
    this.#ws = ws;
    this.#hub = hub;
    this.#limits = limits;
    this.#budget = new FrameBudget(limits.maxFramesPerWindow, limits.windowMs, now);
    // After `activity_timeout` of silence the server pings; a ping left unanswered closes with 4201.
    this.#watchdog = new Watchdog(
      limits.activityTimeoutSeconds * 1000,
      () => this.#write('pusher:ping', {}),
      limits.pongTimeoutMs,
      () => ws.close(4201, 'Pong reply not received'),
    );
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on('close', () => this.#watchdog.stop());
    const socketId = `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`;
    this.#write(
      'pusher:connection_established',
      JSON.stringify({ socket_id: socketId, activity_timeout: limits.activityTimeoutSeconds }),
    );
    this.#watchdog.start();
  }

  send(channel: string, frame: LiveFrame): void {
    this.#ws.send(
      JSON.stringify({ ...frame.extraEnvelope, event: frame.event, data: JSON.stringify(frame.data), channel }),
    );
  }

  drop(code: DropCode): void {
    if (code === 'cut') {
      this.#ws.terminate();
    } else if (code === 4001) {
      refusePusher(this.#ws, 4001, 'App key not in this cluster');
    } else {
      this.#ws.close(code, code === 4200 ? 'Please reconnect immediately' : 'Pong reply not received');
    }
  }

  #write(event: string, data: unknown, channel?: string): void {
    this.#ws.send(JSON.stringify(channel === undefined ? { event, data } : { event, data, channel }));
  }

  #error(message: string): void {
    this.#write('pusher:error', { code: null, message });
  }

  #onMessage(raw: RawData, isBinary: boolean): void {
    this.#watchdog.heard();
    if (!this.#budget.take()) {
      refusePusher(this.#ws, 4301, 'Too many messages');
      return;
    }
    const frame = isBinary ? null : parseObject(rawText(raw));
    if (frame === null || typeof frame.event !== 'string') {
      this.#hub.counters.malformedFrames++;
      this.#error('Malformed frame: expected a JSON object with an event name');
      return;
    }
    const data = typeof frame.data === 'string' ? parseObject(frame.data) : frame.data;
    switch (frame.event) {
      case 'pusher:ping':
        this.#write('pusher:pong', {});
        return;
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        this.#subscribe(data);
        return;
      case 'pusher:unsubscribe': {
        const channel = (data as { channel?: unknown } | null)?.channel;
        if (typeof channel === 'string') {
          this.channels.delete(channel);
        }
        return;
      }
      default:
        this.#hub.counters.unknownEvents++;
        this.#error(
          frame.event.startsWith('client-')
            ? 'Client event rejected - only supported on private and presence channels'
            : 'Unsupported event received',
        );
    }
  }

  #subscribe(data: unknown): void {
    const requested = (data as { channel?: unknown } | null)?.channel;
    const checked = checkChannelName(requested);
    const echo = typeof requested === 'string' ? requested.slice(0, 164) : '';
    if (!checked.ok) {
      this.#write('pusher:subscription_error', { type: 'AuthError', error: checked.reason, status: 401 }, echo);
      return;
    }
    if (!this.channels.has(checked.name) && this.channels.size >= this.#limits.maxSubscriptions) {
      this.#write(
        'pusher:subscription_error',
        {
          type: 'LimitReached',
          error: `at most ${this.#limits.maxSubscriptions} channels per connection`,
          status: 429,
        },
        checked.name,
      );
      return;
    }
    this.channels.add(checked.name);
    this.#write('pusher_internal:subscription_succeeded', '{}', checked.name);
  }
}

/** The text of a frame `ws` hands over (a Buffer, fragments, or an ArrayBuffer). */
export function rawText(raw: RawData): string {
  if (Buffer.isBuffer(raw)) {
    return raw.toString('utf8');
  }
  return (Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw)).toString('utf8');
}

/** The JSON object in `text`, or null for anything else (never throws). */
export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

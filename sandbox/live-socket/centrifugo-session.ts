/**
 * Centrifugo's JSON client protocol, server side, as Kick's realtime host speaks it
 * ([reference §10.1](../../docs/kick-wire-reference.md#101-connection); [sandbox facts](../../docs/sandbox.md#centrifugo)): commands one JSON object a line, `connect` with the token
 * the web host minted, `subscribe`/`unsubscribe`, `{}` pings echoed back, and publications as
 * `push.pub.data` carrying the same event envelope as Pusher's (`data` a JSON string).
 */
import { randomUUID } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import type { LiveFrame } from './frames';
import { checkChannelName, type DropCode, type LiveHub, type LiveSession } from './live-hub';
import type { LiveSocketLimits } from './limits';
import { parseObject, rawText } from './pusher-session';
import { FrameBudget, Watchdog } from './session-timers';

/** Centrifugo's close codes the sandbox uses: 3000–3499 ask the client to reconnect, 3500–3999 do not. */
export const CENTRIFUGO_CLOSE = { noPong: 3012, invalidToken: 3500, badRequest: 3501, stale: 3502 } as const;

/** Centrifugo's client error codes. */
const ERRORS = {
  unauthorized: { code: 101, message: 'unauthorized' },
  permissionDenied: { code: 103, message: 'permission denied' },
  methodNotFound: { code: 104, message: 'method not found' },
  alreadySubscribed: { code: 105, message: 'already subscribed' },
  limitExceeded: { code: 106, message: 'limit exceeded' },
  badRequest: { code: 107, message: 'bad request' },
} as const;

const METHODS = [
  'connect',
  'subscribe',
  'unsubscribe',
  'publish',
  'presence',
  'presence_stats',
  'history',
  'rpc',
  'send',
  'refresh',
  'sub_refresh',
];

export class CentrifugoSession implements LiveSession {
  readonly provider = 'centrifugo';
  readonly channels = new Set<string>();
  readonly #ws: WebSocket;
  readonly #hub: LiveHub;
  readonly #limits: LiveSocketLimits;
  readonly #checkToken: (token: string) => boolean;
  readonly #budget: FrameBudget;
  readonly #handshake: NodeJS.Timeout;
  #pinger: Watchdog | null = null;
  #connected = false;

  constructor(
    ws: WebSocket,
    hub: LiveHub,
    limits: LiveSocketLimits,
    checkToken: (token: string) => boolean,
    now: () => number,
  ) {
    this.#ws = ws;
    this.#hub = hub;
    this.#limits = limits;
    this.#checkToken = checkToken;
    this.#budget = new FrameBudget(limits.maxFramesPerWindow, limits.windowMs, now);
    this.#handshake = setTimeout(() => ws.close(CENTRIFUGO_CLOSE.stale, 'stale'), limits.handshakeTimeoutMs);
    this.#handshake.unref();
    ws.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
    ws.on('close', () => {
      clearTimeout(this.#handshake);
      this.#pinger?.stop();
    });
  }

  send(channel: string, frame: LiveFrame): void {
    const envelope = { ...frame.extraEnvelope, event: frame.event, data: JSON.stringify(frame.data) };
    this.#ws.send(JSON.stringify({ push: { channel, pub: { data: envelope } } }));
  }

  drop(code: DropCode): void {
    if (code === 'cut') {
      this.#ws.terminate();
    } else {
      this.#ws.close(code, 'dropped by the sandbox');
    }
  }

  #reply(id: number, result: Record<string, unknown>): void {
    this.#ws.send(JSON.stringify({ id, ...result }));
  }

  #onMessage(raw: RawData, isBinary: boolean): void {
    this.#pinger?.heard();
    if (!this.#budget.take()) {
      this.#ws.close(CENTRIFUGO_CLOSE.badRequest, 'too many requests');
      return;
    }
    const lines = isBinary
      ? []
      : rawText(raw)
          .split('\n')
          .filter((line) => line.trim().length > 0);
    const commands = lines.map(parseObject);
    if (commands.length === 0 || commands.some((c) => c === null)) {
      this.#hub.counters.malformedFrames++;
      this.#ws.close(CENTRIFUGO_CLOSE.badRequest, 'bad request');
      return;
    }
    for (const command of commands as Record<string, unknown>[]) {
      if (this.#ws.readyState !== this.#ws.OPEN) {
        return;
      }
      this.#command(command);
    }
  }

  #command(command: Record<string, unknown>): void {
    if (Object.keys(command).length === 0) {
      return; // a pong
    }
    const id = command.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      this.#hub.counters.malformedFrames++;
      this.#ws.close(CENTRIFUGO_CLOSE.badRequest, 'bad request');
      return;
    }
    const method = METHODS.find((name) => typeof command[name] === 'object' && command[name] !== null);
    if (method === undefined) {
      this.#hub.counters.unknownEvents++;
      this.#reply(id, { error: ERRORS.methodNotFound });
      return;
    }
    const body = command[method] as Record<string, unknown>;
    if (method === 'connect') {
      this.#connect(id, body);
      return;
    }
    if (!this.#connected) {
      this.#ws.close(CENTRIFUGO_CLOSE.badRequest, 'bad request');
      return;
    }
    if (method === 'subscribe') {
      this.#subscribe(id, body.channel);
    } else if (method === 'unsubscribe') {
      if (typeof body.channel === 'string') {
        this.channels.delete(body.channel);
      }
      this.#reply(id, { unsubscribe: {} });
    } else {
      this.#hub.counters.unknownEvents++;
      this.#reply(id, { error: method === 'publish' ? ERRORS.permissionDenied : ERRORS.methodNotFound });
    }
  }

  #connect(id: number, body: Record<string, unknown>): void {
    if (this.#connected) {
      this.#ws.close(CENTRIFUGO_CLOSE.badRequest, 'bad request');
      return;
    }
    if (typeof body.token !== 'string' || !this.#checkToken(body.token)) {
      this.#ws.close(CENTRIFUGO_CLOSE.invalidToken, 'invalid token');
      return;
    }
    clearTimeout(this.#handshake);
    this.#connected = true;
    const ping = this.#limits.centrifugoPingSeconds;
    this.#reply(id, { connect: { client: randomUUID(), version: '0.0.0-sandbox', ping, pong: true } });
    // The server pings with `{}` every `ping` seconds, whatever the client does; a client that sends nothing
    // back for a ping interval and the grace after it is gone.
    const pings = setInterval(() => this.#ping(), ping * 1000);
    pings.unref();
    this.#ws.on('close', () => clearInterval(pings));
    this.#pinger = new Watchdog(
      ping * 1000 + this.#limits.pongTimeoutMs,
      () => this.#ws.close(CENTRIFUGO_CLOSE.noPong, 'no pong'),
      0,
      () => undefined,
    );
    this.#pinger.start();
  }

  #ping(): void {
    if (this.#ws.readyState === this.#ws.OPEN) {
      this.#ws.send('{}');
    }
  }

  #subscribe(id: number, requested: unknown): void {
    const checked = checkChannelName(requested);
    if (!checked.ok) {
      this.#reply(id, { error: typeof requested === 'string' ? ERRORS.permissionDenied : ERRORS.badRequest });
      return;
    }
    if (this.channels.has(checked.name)) {
      this.#reply(id, { error: ERRORS.alreadySubscribed });
      return;
    }
    if (this.channels.size >= this.#limits.maxSubscriptions) {
      this.#reply(id, { error: ERRORS.limitExceeded });
      return;
    }
    this.channels.add(checked.name);
    this.#reply(id, { subscribe: {} });
  }
}

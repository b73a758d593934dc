/**
 * A small scripted server that speaks just enough of Pusher protocol 7 and of Centrifugo's JSON protocol for the
 * real pusher-js and centrifuge clients, so the transports are tested over real sockets. The test drives it:
 * what to send, when to close and with which code. Frames follow the wire reference: Pusher's `data` is a JSON
 * string, Centrifugo's publication carries the same envelope.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface ScriptedClient {
  ws: WebSocket;
  protocol: 'pusher' | 'centrifugo';
  path: string;
  subscribed: string[];
  received: unknown[];
}

export class ScriptedLiveServer {
  readonly clients: ScriptedClient[] = [];
  /** Centrifugo connect tokens this server accepts. */
  readonly tokens = new Set(['good-token']);
  #server: Server;
  #wss: WebSocketServer;
  #waiters: (() => void)[] = [];
  url = '';

  constructor() {
    this.#server = createServer((_req, res) => res.writeHead(404).end());
    this.#wss = new WebSocketServer({ server: this.#server });
    this.#wss.on('connection', (ws, req) => this.#accept(ws, req.url ?? '/'));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `ws://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) {
      client.terminate();
    }
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Resolves once `check` holds, re-checked at every message the server handles. */
  until(check: () => boolean): Promise<void> {
    if (check()) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const waiter = () => {
        if (check()) {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          resolve();
        }
      };
      this.#waiters.push(waiter);
    });
  }

  /** The client subscribed to every channel named, on its latest socket. */
  subscribedTo(channels: readonly string[]): Promise<ScriptedClient> {
    return this.until(() => {
      const last = this.clients.at(-1);
      return last !== undefined && last.ws.readyState === 1 && channels.every((c) => last.subscribed.includes(c));
    }).then(() => this.clients.at(-1)!);
  }

  /** Sends an event as the socket does, on `channel`, to the latest client. */
  publish(channel: string, event: string, data: unknown, extra: Record<string, unknown> = {}): void {
    const client = this.clients.at(-1)!;
    const envelope = { event, data: typeof data === 'string' ? data : JSON.stringify(data), channel, ...extra };
    client.ws.send(
      client.protocol === 'pusher'
        ? JSON.stringify(envelope)
        : JSON.stringify({ push: { channel, pub: { data: envelope } } }),
    );
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) {
      waiter();
    }
  }

  #accept(ws: WebSocket, path: string): void {
    const protocol = path.startsWith('/connection/websocket') ? 'centrifugo' : 'pusher';
    const client: ScriptedClient = { ws, protocol, path, subscribed: [], received: [] };
    this.clients.push(client);
    ws.on('close', () => this.#notify());
    if (protocol === 'pusher') {
      ws.send(
        JSON.stringify({
          event: 'pusher:connection_established',
          data: JSON.stringify({ socket_id: `${this.clients.length}.1`, activity_timeout: 120 }),
        }),
      );
    }
    ws.on('message', (raw: Buffer) => {
      for (const line of raw
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')) {
        const frame = JSON.parse(line) as Record<string, any>;
        client.received.push(frame);
        if (protocol === 'pusher') {
          this.#pusher(client, frame);
        } else {
          this.#centrifugo(client, frame);
        }
      }
      this.#notify();
    });
    this.#notify();
  }

  #pusher(client: ScriptedClient, frame: Record<string, any>): void {
    if (frame.event === 'pusher:subscribe') {
      const channel = String(frame.data?.channel);
      client.subscribed.push(channel);
      client.ws.send(JSON.stringify({ event: 'pusher_internal:subscription_succeeded', channel, data: '{}' }));
    } else if (frame.event === 'pusher:ping') {
      client.ws.send(JSON.stringify({ event: 'pusher:pong', data: {} }));
    }
  }

  #centrifugo(client: ScriptedClient, frame: Record<string, any>): void {
    const id = frame.id as number | undefined;
    if (frame.connect !== undefined) {
      if (!this.tokens.has(String(frame.connect.token))) {
        client.ws.close(3500, 'invalid token');
        return;
      }
      client.ws.send(JSON.stringify({ id, connect: { client: 'c1', version: '5.0.0', ping: 25, pong: true } }));
    } else if (frame.subscribe !== undefined) {
      client.subscribed.push(String(frame.subscribe.channel));
      client.ws.send(JSON.stringify({ id, subscribe: {} }));
    }
  }
}

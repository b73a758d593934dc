/**
 * A scripted obs-websocket 5 server on the loopback for the real link's unit tests: Hello, Identify (with
 * OBS's authentication challenge), requests answered by a handler the test gives, and close codes on
 * demand — the parts of OBS's behaviour that the real OBS cannot be made to show at will (a request never
 * answered, a response in the wrong shape, a close in the middle of a request).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

/** What the handler answers: OBS's requestStatus and data, or 'silent' for no answer at all. */
export type ScriptedAnswer = { ok: true; data?: unknown } | { ok: false; code: number; comment: string } | 'silent';

export interface ScriptedObsOptions {
  /** Null: no authentication asked. */
  password?: string | null;
  /** Answers each request; GetVersion is answered as OBS 29 unless the handler answers it. */
  answer?: (type: string, data: unknown) => ScriptedAnswer | undefined;
  /** Sends no Hello (a server that accepts the socket and then says nothing). */
  silentHello?: boolean;
  /** Refuses the JSON subprotocol. */
  noSubprotocol?: boolean;
}

const VERSION = { obsVersion: '29.0.2', obsWebSocketVersion: '5.1.0', rpcVersion: 1, availableRequests: [] };
const SALT = 'c2FsdA==';
const CHALLENGE = 'Y2hhbGxlbmdl';

/** obs-websocket's authentication string for `password` (base64 sha256 of sha256(password + salt) + challenge). */
function authString(password: string): string {
  const secret = createHash('sha256')
    .update(password + SALT)
    .digest('base64');
  return createHash('sha256')
    .update(secret + CHALLENGE)
    .digest('base64');
}

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) {
      client.terminate();
    }
    await new Promise((resolve) => server.close(resolve));
  }
});

export interface ScriptedObs {
  url: string;
  /** Requests received, in order. */
  requests: { type: string; data: unknown }[];
  /** The sockets open now. */
  sockets(): WebSocket[];
  /** Sends an event to every identified socket. */
  event(eventType: string, eventData: unknown): void;
  /** Closes every socket with this code (OBS quitting closes without one: 1006 at the client). */
  closeAll(code?: number): void;
}

export async function scriptedObs(options: ScriptedObsOptions = {}): Promise<ScriptedObs> {
  const password = options.password === undefined ? 'scripted-password' : options.password;
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (protocols) =>
      options.noSubprotocol ? false : protocols.has('obswebsocket.json') && 'obswebsocket.json',
  });
  servers.push(server);
  await once(server, 'listening');
  const requests: { type: string; data: unknown }[] = [];
  const identified = new Set<WebSocket>();

  server.on('connection', (socket) => {
    const send = (op: number, d: unknown): void => socket.send(JSON.stringify({ op, d }));
    if (!options.silentHello) {
      send(0, {
        obsWebSocketVersion: '5.1.0',
        rpcVersion: 1,
        ...(password === null ? {} : { authentication: { salt: SALT, challenge: CHALLENGE } }),
      });
    }
    socket.on('close', () => identified.delete(socket));
    socket.on('message', (raw: Buffer) => {
      const { op, d } = JSON.parse(raw.toString()) as { op: number; d: Record<string, unknown> };
      if (op === 1) {
        if (password !== null && d.authentication !== authString(password)) {
          socket.close(4009, 'Authentication failed.');
          return;
        }
        identified.add(socket);
        send(2, { negotiatedRpcVersion: 1 });
        return;
      }
      if (op !== 6) {
        return;
      }
      const type = String(d.requestType);
      requests.push({ type, data: d.requestData });
      const answer =
        options.answer?.(type, d.requestData) ?? (type === 'GetVersion' ? { ok: true, data: VERSION } : undefined);
      if (answer === 'silent') {
        return;
      }
      const status = answer ?? { ok: false, code: 204, comment: 'Your request type is not valid.' };
      send(7, {
        requestType: type,
        requestId: d.requestId,
        requestStatus: status.ok
          ? { result: true, code: 100 }
          : { result: false, code: status.code, comment: status.comment },
        ...(status.ok && status.data !== undefined ? { responseData: status.data } : {}),
      });
    });
  });

  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    sockets: () => [...server.clients],
    event(eventType, eventData) {
      for (const socket of identified) {
        socket.send(JSON.stringify({ op: 5, d: { eventType, eventIntent: 4, eventData } }));
      }
    },
    closeAll(code) {
      for (const socket of server.clients) {
        if (code === undefined) {
          socket.terminate();
        } else {
          socket.close(code);
        }
      }
    },
  };
}

/**
 * A reverse proxy between the sandbox and the app's webhook receiver, like the one a streamer puts in front
 * of Greenroom's fixed webhook port: every delivery passes through unchanged (the signature covers the
 * exact bytes), and the journey learns from the app's own answers which deliveries it acknowledged (200),
 * one by one, whatever the sandbox's bookkeeping says. When the app is down the proxy answers 502, so the
 * sandbox retries as Kick would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { readRequestBody } from '../helpers/request-body';

/** One delivery as it passed through. */
export interface PassedDelivery {
  /** `Kick-Event-Message-Id`. */
  webhookId: string;
  type: string;
  payload: Record<string, unknown>;
  /** The app's answer, or null when it could not be reached. */
  status: number | null;
}

export interface WebhookRecorder {
  /** What to register as the app's webhook URL at the sandbox. */
  url: string;
  deliveries: PassedDelivery[];
  /** Deliveries the app answered 200. */
  acknowledged(): PassedDelivery[];
  /** Called after each delivery is recorded (and before its answer goes back). */
  onDelivery(listener: (delivery: PassedDelivery) => void): void;
  /**
   * From now on, deliveries of these event types are answered 502 and never reach the app, as when Kick's
   * retries of them all fell while the app was down; an empty list lets everything through again.
   */
  refuse(types: string[]): void;
  close(): Promise<void>;
}

/** Listens on a free loopback port and forwards to `target` (the app's receiver URL). */
export async function startWebhookRecorder(target: string): Promise<WebhookRecorder> {
  const deliveries: PassedDelivery[] = [];
  const listeners: ((delivery: PassedDelivery) => void)[] = [];
  let refused = new Set<string>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readRequestBody(req);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') {
          headers[name] = value;
        }
      }
      let status: number | null = null;
      let answer = '';
      try {
        if (!refused.has(headers['kick-event-type'] ?? '')) {
          const upstream = await request(target, { method: 'POST', headers, body });
          status = upstream.statusCode;
          answer = await upstream.body.text();
        }
      } catch {
        // The app is down (killed, restarting): answered 502 below, so the sandbox retries.
      }
      const delivery: PassedDelivery = {
        webhookId: headers['kick-event-message-id'] ?? '',
        type: headers['kick-event-type'] ?? '',
        payload: JSON.parse(body.toString('utf8')) as Record<string, unknown>,
        status,
      };
      deliveries.push(delivery);
      listeners.forEach((listener) => listener(delivery));
      res.writeHead(status ?? 502, { 'content-type': 'text/plain' }).end(answer);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/kick/webhook`,
    deliveries,
    acknowledged: () => deliveries.filter((d) => d.status === 200),
    onDelivery: (listener) => void listeners.push(listener),
    refuse: (types) => (refused = new Set(types)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Journeys pick the app's fixed ports here (test/helpers/free-port.ts says why not port 0's). */
export { freePort } from '../helpers/free-port';

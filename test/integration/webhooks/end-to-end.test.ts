import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toRfc3339Seconds } from '../../../electron/core/clock';
import { createKick, type Kick } from '../../../electron/kick/create-kick';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import type { KickEvent } from '../../../electron/webhooks/events/types';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { type LocalTunnelServer, startLocalTunnelServer } from '../../helpers/localtunnel-server';
import { startSandbox } from '../../helpers/sandbox';

/**
 * Kick (the sandbox) → a real localtunnel server on 127.0.0.1 → Greenroom's tunnel client → the receiver
 * (verify, dedup, journal) → bus listeners: the whole event path, for all ten event types.
 */
describe('webhooks end to end through a real localtunnel server', () => {
  let lt: LocalTunnelServer;
  let sandbox: Sandbox;
  let service: WebhookService;
  let dataDir: string;
  let kick: Kick;
  const received: KickEvent[] = [];
  const subdomain = 'greenroome2etest';

  beforeAll(async () => {
    lt = await startLocalTunnelServer();
    sandbox = await startSandbox({ delivery: { tickMs: 0, resolveHostsTo: '127.0.0.1' } });
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-e2e-webhooks-'));
    service = createWebhookService(
      { dataDir, port: 0, tunnel: 'localtunnel', tunnelHost: lt.url, subdomain, wantedEvents: KICK_EVENT_TYPES },
      {
        // Kick's clock and ours agree, as they do in life; advancing it makes held-back deliveries late.
        clock: sandbox.ctx.clock,
        log: () => undefined,
        fetchPublicKey: async () => {
          const res = await request(new URL('/public/v1/public-key', sandbox.urls.api));
          return ((await res.body.json()) as { data: { public_key: string } }).data.public_key;
        },
      },
    );
    service.bus.onAny((event) => void received.push(event));
    await (await service.restore()).start();
    await new Promise<void>((resolve) => {
      const check = (): void => {
        const health = service.health();
        if (health.tunnel.state === 'up' && health.tunnel.reachable === true) {
          stop();
          resolve();
        }
      };
      const stop = service.onHealthChange(check);
      check();
    });
    // What the streamer pastes into Kick's dashboard (the test server's public names carry its port).
    sandbox.ctx.app.webhookUrl = `http://${lt.hostFor(subdomain)}/kick/webhook`;
    // As after sign-in: the reconciler subscribes at Kick and tells the receiver which subscriptions are ours.
    kick = createKick(
      {
        apiUrl: sandbox.urls.api,
        authUrl: sandbox.urls.auth,
        clientId: sandbox.ctx.app.clientId,
        clientSecret: sandbox.ctx.app.clientSecret,
        redirectUri: 'http://127.0.0.1:3000/callback',
        scopes: [],
      },
      { clock: sandbox.ctx.clock, store: new MemorySecretStore(), openExternal: () => Promise.resolve() },
    );
    service.manageSubscriptions(kick.client, sandbox.describe().broadcasterUserId);
    await new Promise<void>((resolve) => {
      const check = (): void => {
        const { subscriptions } = service.health();
        if (subscriptions.length === KICK_EVENT_TYPES.length && subscriptions.every((s) => s.state === 'active')) {
          stop();
          resolve();
        }
      };
      const stop = service.onHealthChange(check);
      check();
    });
  }, 60_000);

  afterAll(async () => {
    await service.stop();
    await kick.close();
    await sandbox.close();
    await lt.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function deliver(fire: () => void): Promise<KickEvent[]> {
    const before = received.length;
    fire();
    await sandbox.delivery.flush();
    await service.bus.idle();
    return received.slice(before);
  }

  it('the public URL is the tunnel URL plus the receiver path', () => {
    expect(service.webhookUrl()).toBe(`http://${subdomain}.localhost/kick/webhook`);
  });

  it('health says subscribed, with no arrival, for every type before any event came', () => {
    expect(service.health().subscriptions.map((s) => [s.state, s.lastArrivalMs])).toEqual(
      KICK_EVENT_TYPES.map(() => ['active', null]),
    );
  });

  it.each(KICK_EVENT_TYPES)('%s arrives verified, parsed and typed', async (type) => {
    const events = await deliver(() => void triggerEvent(sandbox.ctx, type, {}));
    expect(events).toHaveLength(1);
    expect(events[0], JSON.stringify((events[0] as { reason?: string }).reason)).toMatchObject({
      kind: 'known',
      type,
      version: 1,
    });
    const attempts = sandbox.delivery.attempts.filter((a) => a.messageId === events[0]!.messageId);
    expect(attempts.map((a) => a.status)).toEqual([200]);
    // Health tells when this type last arrived.
    const entry = service.health().subscriptions.find((s) => s.type === type);
    expect(entry?.lastArrivalMs).toBe(events[0]!.receivedAtMs);
  });

  it('duplicates (same id, and the same payload under a new id) reach listeners once', async () => {
    const events = await deliver(
      () => void triggerEvent(sandbox.ctx, 'chat.message.sent', { duplicates: 2, resendWithNewId: true }),
    );
    expect(events).toHaveLength(1);
    const acknowledged = sandbox.delivery.attempts.slice(-4);
    expect(acknowledged.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(service.health().counters.duplicates).toBeGreaterThanOrEqual(3);
  });

  it('late and out-of-order deliveries each reach listeners once', async () => {
    const before = received.length;
    triggerEvent(sandbox.ctx, 'chat.message.sent', { count: 5, outOfOrder: true });
    triggerEvent(sandbox.ctx, 'channel.followed', { delaySeconds: 120 });
    for (let i = 0; i < 8; i++) {
      sandbox.ctx.clock.advance(30_000);
      await sandbox.delivery.flush();
    }
    await service.bus.idle();
    const events = received.slice(before);
    expect(events.filter((e) => e.type === 'chat.message.sent')).toHaveLength(5);
    expect(events.filter((e) => e.type === 'channel.followed')).toHaveLength(1);
    expect(new Set(events.map((e) => e.messageId)).size).toBe(events.length);
  });

  it('chat Kick held eleven minutes arrives with a fresh send time, and health shows the delay', async () => {
    // Past the lag window, so only this delivery counts.
    sandbox.ctx.clock.advance(11 * 60_000);
    const [late] = await deliver(() => {
      triggerEvent(sandbox.ctx, 'chat.message.sent', { delaySeconds: 660 });
      sandbox.ctx.clock.advance(660_000);
    });
    const attempt = sandbox.delivery.attempts.find((a) => a.messageId === late!.messageId)!;
    expect(attempt.attemptedAtMs - attempt.eventAtMs).toBeGreaterThanOrEqual(660_000);
    expect(late!.timestamp).toBe(toRfc3339Seconds(attempt.attemptedAtMs));
    expect(service.health().lag).toMatchObject({ samples: 1, state: 'delayed' });
    expect(service.health().lag.delayMs).toBeGreaterThanOrEqual(660_000);
  });
});

/**
 * A burst of deliveries through the real webhook port (signed HTTP from the embedded sandbox,
 * verify, journal, bus) causes a bounded number of health pushes to panels and tray redraws, not one per
 * delivery. The tray painter is fed exactly as electron/main.ts feeds it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { HEALTH_PUSH_INTERVAL_MS } from '../../../electron/app/health-push';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { createTrayPainter, type TrayStatus } from '../../../electron/shell/tray-status';
import { triggerEvent } from '../../../sandbox/triggers';
import { STREAMER_USER_ID } from '../../../sandbox/world';

const BURST = 600;

describe('a burst of deliveries through the whole app', () => {
  let dir: string;
  let app: GreenroomApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-health-burst-'));
    const settings = openSettings(dir, { randomBytes });
    settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
    // Every line by webhook, the path measured here: with the live socket on, the socket would show them first.
    settings.setLiveSocket({ ...settings.values().liveSocket, enabled: false });
    const config = resolveConfig({
      env: {
        GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
        GREENROOM_SANDBOX_ACTIVITY: 'off',
        GREENROOM_WEBHOOK_PORT: '0',
      },
      settings: settings.values(),
      storedClientSecret: null,
      dataDir: dir,
    });
    app = await createApp(config, {
      clock: systemClock,
      openExternal: async (url) => {
        const authorize = await request(url);
        await authorize.body.text();
        await (await request(authorize.headers.location as string)).body.text();
      },
      secretStore: new MemorySecretStore(),
      webhooks: createAppWebhookPort,
      log: () => undefined,
      dataDir: dir,
      settings,
    });
    await app.start();
    const subscribed = new Promise<void>((resolve) => {
      const off = app.events.on('health:changed', (health) => {
        if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
          off();
          resolve();
        }
      });
    });
    expect(await app.router.invoke('auth:start-login', [{}])).toMatchObject({ ok: true });
    await subscribed;
  });

  afterAll(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`${BURST} chat deliveries: a few health pushes and one tray redraw at most, not ${BURST}`, async () => {
    const drawn: TrayStatus[] = [];
    const paint = createTrayPainter((status) => drawn.push(status));
    paint(app.snapshot());
    const before = drawn.length;
    let pushes = 0;
    const offHealth = app.events.on('health:changed', () => {
      pushes++;
      paint(app.snapshot());
    });
    let shown = 0;
    const all = new Promise<void>((resolve) => {
      const off = app.events.on('kick:event', (event) => {
        if (event.kind === 'chat' && ++shown === BURST) {
          off();
          resolve();
        }
      });
    });
    const started = Date.now();
    triggerEvent(app.sandbox!.ctx, 'chat.message.sent', { count: BURST });
    await all;
    // The trailing push that carries the last delivery's counters.
    await new Promise((resolve) => setTimeout(resolve, HEALTH_PUSH_INTERVAL_MS * 2));
    const elapsed = Date.now() - started;
    offHealth();

    expect(app.snapshot().health.counters.accepted).toBeGreaterThanOrEqual(BURST);
    expect(pushes).toBeGreaterThan(0);
    expect(pushes).toBeLessThanOrEqual(Math.ceil(elapsed / HEALTH_PUSH_INTERVAL_MS) + 2);
    expect(pushes).toBeLessThan(BURST / 10);
    expect(drawn.length - before).toBeLessThanOrEqual(1);
  });
});

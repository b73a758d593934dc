/**
 * Late alerts with Kick's webhooks held back, in the whole app on its embedded sandbox (real receiver, real
 * Health delay figure, real late gate and alert queue): the sandbox holds every webhook ten minutes
 * (`POST /live-socket/settings {"webhook_delay_seconds":600}`), then releases them as the shared clock
 * reaches their time. A follow carries no time of its own and its header is Kick's send time, so the late
 * gate judges it by Health's delay; the alert box must list it as that late ("10 min late"), not by the
 * second its header shows, and say which limit held it back (docs/overlays.md#alerts-and-the-late-age).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { AdjustableClock, systemClock } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { DEFAULT_OVERLAY_SETTINGS } from '../../../shared/overlays';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID } from '../../../sandbox/world';
import { callAdmin } from '../../helpers/sandbox';
import { fx, invoke, STREAMER_USER_ID } from './chat-bot-fixtures';

const HELD_S = 600;
/** One clock for the app and its sandbox, so a held webhook falls due when the test moves it on. */
const clock = new AdjustableClock(systemClock);

/** Moves the clock on and has the sandbox deliver whatever fell due, every attempt answered. */
async function release(ms: number): Promise<void> {
  clock.advance(ms);
  await fx.sandbox.delivery.flush();
}

beforeAll(async () => {
  fx.dir = mkdtempSync(join(tmpdir(), 'greenroom-late-held-'));
  const settings = openSettings(fx.dir, { randomBytes });
  const overlays = structuredClone(DEFAULT_OVERLAY_SETTINGS);
  // The alert box's own age differs from the late age, so a heading naming the wrong one would show.
  overlays.queue.maxAgeSec = 3600;
  settings.update({ redirectUri: 'http://127.0.0.1:0/callback', overlays, lateAfterSec: 120 });
  const config = resolveConfig({
    env: {
      GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
      GREENROOM_SANDBOX_ACTIVITY: 'off',
      GREENROOM_WEBHOOK_PORT: '0',
    },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir: fx.dir,
  });
  fx.app = await createApp(config, {
    clock,
    openExternal: async (url) => {
      const authorize = await request(url);
      await authorize.body.text();
      await (await request(authorize.headers.location as string)).body.text();
    },
    secretStore: new MemorySecretStore(),
    webhooks: createAppWebhookPort,
    log: () => undefined,
    dataDir: fx.dir,
    settings,
  });
  fx.sandbox = fx.app.sandbox!;
  await fx.app.start();
  const subscribed = new Promise<void>((resolve) => {
    const off = fx.app.events.on('health:changed', (health) => {
      if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
        off();
        resolve();
      }
    });
  });
  const signedIn = await invoke('auth:start-login', {});
  if (!signedIn.ok) {
    throw new Error(`sign-in failed: ${signedIn.error.message}`);
  }
  await subscribed;
}, 30_000);

afterAll(async () => {
  await fx.app?.stop();
  rmSync(fx.dir, { recursive: true, force: true });
});

describe('alerts held back while Kick’s webhooks are ten minutes behind', () => {
  it('lists the late follows as ten minutes late, by the late age, not by their send-time header', async () => {
    const held = await callAdmin(fx.sandbox, 'POST', '/live-socket/settings', {
      body: { webhook_delay_seconds: HELD_S },
    });
    expect(held.status, held.text).toBe(200);
    // Chat first: its webhooks carry their own time, and are what Health measures Kick's delay by.
    for (let i = 0; i < 5; i++) {
      triggerEvent(fx.sandbox.ctx, 'chat.message.sent', {
        overrides: { content: `line ${i}`, sender: { user_id: FIRST_VIEWER_USER_ID + i } },
      });
    }
    await release(30_000);
    const follows = [1, 2].map(
      (i) =>
        triggerEvent(fx.sandbox.ctx, 'channel.followed', {
          overrides: { follower: { user_id: FIRST_VIEWER_USER_ID + 10 + i } },
        })[0]!,
    );
    const sub = triggerEvent(fx.sandbox.ctx, 'channel.subscription.new', {
      overrides: { subscriber: { user_id: FIRST_VIEWER_USER_ID + 20 } },
    })[0]!;
    expect(fx.sandbox.delivery.pendingCount()).toBe(8);

    // The chat's webhooks come out of the queue: Health now says Kick is ten minutes behind.
    await release(HELD_S * 1000 - 30_000);
    await vi.waitFor(() => expect(fx.app.snapshot().health.lag.p50Ms).toBeGreaterThanOrEqual(HELD_S * 1000 - 1000));
    // Then the follows and the sub, whose follows' headers say they were sent just now.
    await release(30_000);
    await vi.waitFor(async () => {
      const view = await invoke('alerts:status');
      expect(view.ok && view.value.tooOld.count).toBe(3);
    });
    const view = await invoke('alerts:status');
    const tooOld = view.ok ? view.value.tooOld : null;
    expect(view.ok && [view.value.waiting, view.value.current]).toEqual([0, null]);
    // Every one was held back by the late age, none by the alert box's hour.
    expect(tooOld!.lateCount).toBe(3);
    const names = [
      ...follows.map((e) => (e.payload as { follower: { username: string } }).follower.username),
      (sub.payload as { subscriber: { username: string } }).subscriber.username,
    ];
    expect(tooOld!.items.map((item) => item.kind).sort()).toEqual(['follow', 'follow', 'subscription']);
    for (const name of names) {
      const item = tooOld!.items.find((i) => i.text.startsWith(name));
      expect(item, name).toMatchObject({ limit: 'late-age' });
      // Ten minutes late (a header has whole seconds), never the second the follow's header shows.
      expect(item!.ageMs, name).toBeGreaterThanOrEqual(HELD_S * 1000 - 2000);
      expect(item!.ageMs, name).toBeLessThanOrEqual(HELD_S * 1000 + 2000);
    }
  }, 30_000);
});

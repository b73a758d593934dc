/**
 * The composition root in sandbox mode, end to end: createApp starts the embedded sandbox, the streamer
 * signs in through the sandbox's consent page (played by an HTTP client), and every panel request goes
 * through `router.invoke` exactly as the IPC and WebSocket transports send it. Each step asserts that the
 * sandbox's own state changed, not just that a call returned.
 *
 * This file: “createApp in sandbox mode with the defaults”; “createApp with the real webhook port, across a restart”.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/errors';
import type { EventPayloads, InvokeResults } from '../../../shared/ipc-contract';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { triggerEvent } from '../../../sandbox/triggers';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { createSandboxWebhookPort, type SandboxWebhookPort } from './sandbox-webhook-port';

describe('createApp in sandbox mode with the defaults', () => {
  it('runs simulated channel activity, approves sign-in at once when configured, and stops everything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-app-'));
    try {
      const settings = openSettings(dir, { randomBytes });
      settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
      const config = resolveConfig({
        env: { GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID) },
        settings: settings.values(),
        storedClientSecret: null,
        dataDir: dir,
      });
      // No consent page to click through: the authorize URL redirects straight to the loopback listener.
      const open = async (url: string): Promise<void> => {
        const authorize = await request(url);
        await authorize.body.text();
        const callback = await request(authorize.headers.location as string);
        await callback.body.text();
      };
      let port: SandboxWebhookPort | undefined;
      const app = await createApp(config, {
        clock: systemClock,
        openExternal: open,
        secretStore: new MemorySecretStore(),
        webhooks: (deps) => (port = createSandboxWebhookPort(deps)),
        log: () => undefined,
        dataDir: dir,
        settings,
      });
      await app.start();
      const jobs = app.sandbox!.admin.jobs;
      expect(jobs.list()).toEqual([expect.objectContaining({ name: 'simulated-activity', state: 'running' })]);
      const signedIn = await app.router.invoke('auth:start-login', [{}]);
      expect(signedIn).toMatchObject({ ok: true, value: { signedIn: true, userId: STREAMER_USER_ID } });
      await app.stop();
      expect(jobs.list()).toEqual([expect.objectContaining({ name: 'simulated-activity', state: 'stopped' })]);
      expect(port?.started).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createApp with the real webhook port, across a restart', () => {
  it('brings chat and the feed back from the journal, without announcing them again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-app-restart-'));
    const build = async () => {
      const settings = openSettings(dir, { randomBytes });
      settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
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
      const app = await createApp(config, {
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
      const events: EventPayloads['kick:event'][] = [];
      app.events.on('kick:event', (event) => events.push(event));
      return { app, events };
    };
    /** Resolves once `app` has announced an event that `match` accepts. */
    const announced = (
      events: EventPayloads['kick:event'][],
      app: GreenroomApp,
      match: (e: EventPayloads['kick:event']) => boolean,
    ) =>
      new Promise<void>((resolve) => {
        if (events.some(match)) {
          resolve();
          return;
        }
        const off = app.events.on('kick:event', (event) => {
          if (match(event)) {
            off();
            resolve();
          }
        });
      });
    try {
      const first = await build();
      await first.app.start();
      // Signed in, the reconciler subscribes; wait until Kick (the sandbox) has every subscription.
      const subscribed = new Promise<void>((resolve) => {
        const off = first.app.events.on('health:changed', (health) => {
          if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
            off();
            resolve();
          }
        });
      });
      expect(await first.app.router.invoke('auth:start-login', [{}])).toMatchObject({ ok: true });
      await subscribed;
      const sandbox = first.app.sandbox!;
      const chat = announced(
        first.events,
        first.app,
        (e) => e.kind === 'chat' && e.message.content === 'still here after a restart',
      );
      const follow = announced(first.events, first.app, (e) => e.kind === 'feed' && e.item.kind === 'follow');
      triggerEvent(sandbox.ctx, 'chat.message.sent', { overrides: { content: 'still here after a restart' } });
      triggerEvent(sandbox.ctx, 'channel.followed');
      await Promise.all([chat, follow]);
      await first.app.stop();

      const second = await build();
      await second.app.start();
      const history = (await second.app.router.invoke('chat:history', [])) as Result<InvokeResults['chat:history']>;
      expect(history.ok && history.value.map((m) => m.content)).toEqual(['still here after a restart']);
      const feed = (await second.app.router.invoke('feed:history', [])) as Result<InvokeResults['feed:history']>;
      expect(feed.ok && feed.value.map((f) => f.kind)).toEqual(['follow']);
      expect(second.events).toEqual([]);
      await second.app.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

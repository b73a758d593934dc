/**
 * The app host against the real composition root (createApp, the settings store, the embedded sandbox in
 * sandbox mode) with the fake webhook port: a settings change that the app was built from rebuilds it in
 * this process, behind the same router and events; one that is read live leaves it alone.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayloads } from '../../../../shared/ipc-contract';
import { type AppConfig, resolveConfig } from '../../../../electron/app/config';
import { createApp } from '../../../../electron/app/create-app';
import { openSettings, type SettingsStore } from '../../../../electron/app/settings';
import type { WebhookPort } from '../../../../electron/app/webhook-port';
import { AdjustableClock } from '../../../../electron/core/clock';
import { type AppHost, createAppHost } from '../../../../electron/launch/app-host';
import { MemorySecretStore, SECRET_KEYS } from '../../../../electron/secrets/secret-store';
import type { KickEvent } from '../../../../electron/webhooks/types';
import { createFakeWebhookPort, type FakeWebhookPort } from '../app/fake-webhook-port';

const ENV = {
  // Kick mode talks to nothing in these tests; the addresses only have to parse.
  GREENROOM_KICK_API_URL: 'http://127.0.0.1:9',
  GREENROOM_KICK_AUTH_URL: 'http://127.0.0.1:9',
  GREENROOM_SANDBOX_ACTIVITY: 'off',
};

function chat(content: string): KickEvent {
  const user = {
    is_anonymous: false,
    user_id: 5,
    username: 'lunarfox',
    is_verified: null,
    profile_picture: null,
    channel_slug: null,
  };
  return {
    kind: 'known',
    type: 'chat.message.sent',
    version: 1,
    messageId: `w-${content}`,
    subscriptionId: 's',
    timestamp: '2026-03-01T12:00:00Z',
    receivedAtMs: 0,
    payload: { message_id: `m-${content}`, broadcaster: user, sender: user, content, emotes: null },
  };
}

/** A port whose receiver cannot listen, as when another program holds the webhook port. */
function unableToListen(port: FakeWebhookPort): WebhookPort {
  return {
    ...port,
    async restore() {
      const restored = await port.restore();
      return {
        events: restored.events,
        start: () => Promise.reject(new Error('listen EADDRINUSE: address already in use 127.0.0.1:7532')),
      };
    },
  };
}

describe('the app host', () => {
  let dir: string;
  let settings: SettingsStore;
  let secrets: MemorySecretStore;
  let host: AppHost | null;
  const ports: FakeWebhookPort[] = [];
  const logs: string[] = [];
  /** Configurations whose webhook side cannot start. */
  let refuse: (config: AppConfig) => boolean;
  /** Held open to look at requests made while an app is being swapped in; `atGate` hears a build wait. */
  let gate: Promise<void> | null;
  let atGate: () => void;

  async function startHost(): Promise<AppHost> {
    const holder: { host: AppHost | null } = { host: null };
    const created = await createAppHost({
      resolveConfig: async () =>
        resolveConfig({
          env: ENV,
          settings: settings.values(),
          storedClientSecret: await secrets.get(SECRET_KEYS.clientSecret),
          dataDir: dir,
        }),
      build: async (config) => {
        if (gate) {
          atGate();
          await gate;
        }
        return createApp(config, {
          clock: new AdjustableClock(),
          openExternal: () => Promise.reject(new Error('no browser here')),
          secretStore: secrets,
          webhooks: (deps) => {
            const port = createFakeWebhookPort(dir);
            port.deps = deps;
            ports.push(port);
            return refuse(config) ? unableToListen(port) : port;
          },
          log: (line) => logs.push(line),
          dataDir: dir,
          settings,
          restart: () => holder.host!.apply({ force: true }),
          notApplied: () => holder.host?.notApplied() ?? null,
        });
      },
      onSettingsChange: (listener) => settings.onChange(listener),
      log: (line) => logs.push(line),
    });
    holder.host = created;
    host = created;
    await created.start();
    return created;
  }

  /** Resolves with the next `app:restarted` the host announces. */
  const nextRestart = (on: AppHost): Promise<EventPayloads['app:restarted']> =>
    new Promise((resolve) => {
      const off = on.events.on('app:restarted', (payload) => {
        off();
        resolve(payload);
      });
    });

  /** Kick mode: a client id in the settings and its secret in the store. */
  async function onKick(): Promise<void> {
    settings.setClientId('client-1');
    await secrets.set(SECRET_KEYS.clientSecret, 'secret-1');
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-host-'));
    settings = openSettings(dir, { randomBytes });
    secrets = new MemorySecretStore();
    host = null;
    ports.length = 0;
    logs.length = 0;
    refuse = () => false;
    gate = null;
    atGate = () => undefined;
  });
  afterEach(async () => {
    await host?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('switches from the sandbox to Kick when credentials are saved, behind the same router and events', async () => {
    const running = await startHost();
    const first = running.app;
    expect(first.config.mode).toBe('sandbox');
    const restarted = nextRestart(running);

    const saved = await running.router.invoke('settings:set-credentials', [
      { clientId: 'client-1', clientSecret: 'secret-1' },
    ]);
    expect(saved).toMatchObject({ ok: true, value: { clientId: 'client-1', hasClientSecret: true } });
    expect(await restarted).toEqual({
      message: "Greenroom now runs with your Kick app's credentials. Sign in with Kick to continue.",
    });

    expect(running.app).not.toBe(first);
    expect(await running.router.invoke('app:snapshot', [])).toMatchObject({
      ok: true,
      value: { mode: 'kick', sandboxNotice: null, settings: { notApplied: null } },
    });
    // The old app is gone: its webhook side stopped and its embedded sandbox closed.
    expect(ports[0]!.calls).toEqual(['restore', 'start', 'stop']);
    expect(ports[1]!.calls).toEqual(['restore', 'start']);
    expect(running.app.sandbox).toBeUndefined();
  });

  it('moves event listeners to the new app, so a panel subscribed before the switch hears it', async () => {
    await onKick();
    const running = await startHost();
    const heard: string[] = [];
    running.events.on('kick:event', (event) => heard.push(event.kind === 'chat' ? event.message.content : '?'));
    ports[0]!.publish(chat('before'));

    const restarted = nextRestart(running);
    settings.update({ tunnel: 'off' });
    await restarted;
    ports[1]!.publish(chat('after'));

    expect(heard).toEqual(['before', 'after']);
    // The chat the old app had is restored by the new one from the journal.
    expect(await running.router.invoke('chat:history', [])).toMatchObject({
      ok: true,
      value: [{ content: 'before' }, { content: 'after' }],
    });
  });

  it('keeps the Kick sign-in when the tunnel, the redirect URL or the wanted events change', async () => {
    await onKick();
    const token = JSON.stringify({
      accessToken: 'user-token',
      refreshToken: 'refresh',
      expiresAtMs: Date.now() + 3_600_000,
      scopes: ['chat:write'],
      clientId: 'client-1',
    });
    await secrets.set(SECRET_KEYS.userToken, token);
    const running = await startHost();
    expect(running.app.snapshot().account.signedIn).toBe(true);

    const restarted = nextRestart(running);
    settings.update({
      tunnel: 'off',
      redirectUri: 'http://127.0.0.1:53682/callback',
      wantedEvents: ['chat.message.sent'],
    });
    expect(await restarted).toEqual({
      message: 'Greenroom now runs with the redirect URL, the events to receive, the tunnel.',
    });
    expect(running.app.config).toMatchObject({
      tunnel: { setting: 'off' },
      redirectUri: 'http://127.0.0.1:53682/callback',
      wantedEvents: ['chat.message.sent'],
    });
    expect(ports.at(-1)!.deps?.wantedEvents()).toEqual(['chat.message.sent']);
    expect(running.app.snapshot().account.signedIn).toBe(true);
    expect(await secrets.get(SECRET_KEYS.userToken)).toBe(token);
  });

  it('starts signed out on a different Kick app (its tokens were issued to the old one)', async () => {
    await onKick();
    await secrets.set(
      SECRET_KEYS.userToken,
      JSON.stringify({
        accessToken: 'user-token',
        refreshToken: 'refresh',
        expiresAtMs: Date.now() + 3_600_000,
        scopes: [],
        clientId: 'client-1',
      }),
    );
    const running = await startHost();
    const restarted = nextRestart(running);
    await running.router.invoke('settings:set-credentials', [{ clientId: 'client-2', clientSecret: 'secret-2' }]);
    expect(await restarted).toEqual({
      message: 'Greenroom now runs with a different Kick app. Sign in with Kick to continue.',
    });
    expect(running.app.snapshot().account.signedIn).toBe(false);
  });

  it('leaves the running app alone for settings it reads live', async () => {
    await onKick();
    const running = await startHost();
    const first = running.app;
    let restarts = 0;
    running.events.on('app:restarted', () => restarts++);
    settings.update({ chatScrollback: 5000, notifications: { follows: false }, setupGuideDone: true });
    // Applying is queued in order: this one finishes after the ones the changes above started.
    await running.apply();
    expect(running.app).toBe(first);
    expect(restarts).toBe(0);
    expect(ports).toHaveLength(1);
  });

  it('holds requests made during a swap for the new app instead of a stopped one', async () => {
    await onKick();
    const running = await startHost();
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    const building = new Promise<void>((resolve) => (atGate = resolve));
    settings.update({ tunnel: 'off' });
    await building;
    expect(ports[0]!.calls.at(-1)).toBe('stop');
    const order: string[] = [];
    const during = running.router.invoke('chat:history', []).then((result) => {
      order.push('answered');
      return result;
    });
    // Everything already queued runs first: a request passed to the stopped app would be answered by now.
    await new Promise((resolve) => setImmediate(resolve));
    order.push('released');
    release();
    expect(await during).toEqual({ ok: true, value: [] });
    expect(order).toEqual(['released', 'answered']);
    expect(running.app.config.tunnel.setting).toBe('off');
  });

  it('runs the previous settings again when the new ones cannot start, says why, and Restart now retries', async () => {
    await onKick();
    const running = await startHost();
    refuse = (config) => config.tunnel.setting === 'off';

    const failed = nextRestart(running);
    settings.update({ tunnel: 'off' });
    expect((await failed).message).toMatch(/could not switch to the tunnel, so it is still running with the previous/);
    expect(running.app.config.tunnel.setting).toBe('localtunnel');
    const view = await running.router.invoke('settings:get', []);
    expect(view).toMatchObject({
      ok: true,
      value: {
        tunnel: 'off',
        notApplied: {
          reason: expect.stringMatching(/^Greenroom could not switch to the tunnel/),
          details: 'listen EADDRINUSE: address already in use 127.0.0.1:7532',
        },
      },
    });

    // Whatever held the port is gone; the streamer presses Restart now.
    refuse = () => false;
    const retried = nextRestart(running);
    expect(await running.router.invoke('app:restart', [])).toEqual({ ok: true, value: null });
    expect((await retried).message).toBe('Greenroom now runs with the tunnel. Sign in with Kick to continue.');
    expect(running.app.config.tunnel.setting).toBe('off');
    expect(running.notApplied()).toBeNull();
  });

  it('answers why when neither the new nor the previous settings start, and Restart now still works', async () => {
    await onKick();
    const running = await startHost();
    refuse = () => true;
    const failed = nextRestart(running);
    settings.update({ tunnel: 'off' });
    await failed;
    expect(await running.router.invoke('chat:history', [])).toMatchObject({
      ok: false,
      error: { code: 'Internal', message: expect.stringMatching(/^Greenroom stopped: neither the new settings/) },
    });

    refuse = () => false;
    const retried = nextRestart(running);
    expect(await running.router.invoke('app:restart', [])).toEqual({ ok: true, value: null });
    await retried;
    expect(await running.router.invoke('chat:history', [])).toEqual({ ok: true, value: [] });
  });

  it('applies quick successive changes in order and ends on the last', async () => {
    await onKick();
    const running = await startHost();
    settings.update({ tunnel: 'off' });
    settings.update({ redirectUri: 'http://127.0.0.1:53682/callback' });
    settings.update({ tunnel: 'https://my-proxy.example' });
    await running.apply();
    expect(running.app.config).toMatchObject({
      tunnel: { setting: 'https://my-proxy.example' },
      redirectUri: 'http://127.0.0.1:53682/callback',
    });
    // Every app but the last was stopped; nothing was left running.
    expect(ports.slice(0, -1).every((port) => port.calls.at(-1) === 'stop')).toBe(true);
    expect(ports.at(-1)!.calls).toEqual(['restore', 'start']);
  });

  it('stops the serving app, and follows no settings afterwards', async () => {
    await onKick();
    const running = await startHost();
    await running.stop();
    host = null;
    settings.update({ tunnel: 'off' });
    await running.apply();
    expect(ports).toHaveLength(1);
    expect(ports[0]!.calls).toEqual(['restore', 'start', 'stop']);
  });
});

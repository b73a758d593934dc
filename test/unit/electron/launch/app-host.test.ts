/**
 * The app host against the real composition root (createApp, the settings store, the embedded sandbox in
 * sandbox mode) with the fake webhook port: a settings change that the app was built from rebuilds it in
 * this process, behind the same router and events; one that is read live leaves it alone.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventPayloads } from '../../../../shared/ipc-contract';
import { type AppConfig, resolveConfig } from '../../../../electron/app/config';
import { createApp } from '../../../../electron/app/create-app';
import { openSettings, type SettingsStore } from '../../../../electron/app/settings';
import type { WebhookPort } from '../../../../electron/app/webhook-port';
import { AdjustableClock } from '../../../../electron/core/clock';
import { type AppHost, createAppHost } from '../../../../electron/launch/app-host';
import { keepSandbox, type KeptSandbox } from '../../../../electron/launch/kept-sandbox';
import { STREAMER_USER_ID } from '../../../../sandbox/world';
import { MemorySecretStore, SECRET_KEYS } from '../../../../electron/secrets/secret-store';
import type { KickEvent } from '../../../../electron/webhooks/types';
import { createFakeWebhookPort, type FakeWebhookPort } from '../app/fake-webhook-port';

const ENV = {
  // Kick mode talks to nothing in these tests; the addresses only have to parse.
  GREENROOM_KICK_API_URL: 'http://127.0.0.1:9',
  GREENROOM_KICK_AUTH_URL: 'http://127.0.0.1:9',
  GREENROOM_SANDBOX_ACTIVITY: 'off',
  GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
};

/** Plays the system browser: follows the sandbox's auto-approved authorize URL to our loopback callback. */
async function visit(url: string): Promise<void> {
  let next: string | undefined = url;
  for (let hops = 0; next && hops < 5; hops++) {
    const res: Awaited<ReturnType<typeof request>> = await request(next);
    await res.body.text();
    const location: unknown = res.headers.location;
    next = typeof location === 'string' ? new URL(location, next).href : undefined;
  }
}

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
  let sandboxes: KeptSandbox;
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
        // As launch-greenroom.ts builds them: one embedded sandbox kept across apps in sandbox mode.
        const sandbox = await sandboxes.lend(config);
        return createApp(config, {
          clock: new AdjustableClock(),
          openExternal: visit,
          ...(sandbox ? { sandbox } : {}),
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
    // The loopback sign-in listener takes a free port; the sandbox registers whatever it picked.
    settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
    secrets = new MemorySecretStore();
    sandboxes = keepSandbox({ clock: new AdjustableClock(), log: (line) => logs.push(line) });
    host = null;
    ports.length = 0;
    logs.length = 0;
    refuse = () => false;
    gate = null;
    atGate = () => undefined;
  });
  afterEach(async () => {
    await host?.stop();
    await sandboxes.close();
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

  it('on the sandbox, a new event list keeps the simulated channel and the sign-in', async () => {
    const running = await startHost();
    const sandbox = running.app.sandbox!;
    expect(await running.router.invoke('auth:start-login', [{}])).toMatchObject({
      ok: true,
      value: { signedIn: true, userId: STREAMER_USER_ID },
    });
    const first = running.app;

    const restarted = nextRestart(running);
    settings.update({ wantedEvents: ['chat.message.sent'] });
    expect(await restarted).toEqual({ message: 'Greenroom now runs with the events to receive.' });
    expect(running.app).not.toBe(first);
    expect(running.app.sandbox).toBe(sandbox);
    expect(running.app.snapshot().account.signedIn).toBe(true);
    // The new app asks the sandbox who the token belongs to; the token issued before the rebuild still works.
    await expect.poll(() => running.app.snapshot().account.userId).toBe(STREAMER_USER_ID);
    // The sandbox still answers, with the token issued before the rebuild.
    expect(await running.router.invoke('stream:info', [])).toMatchObject({ ok: true });
  });

  it('closes the kept sandbox once Greenroom talks to Kick', async () => {
    const running = await startHost();
    const sandbox = running.app.sandbox!;
    const restarted = nextRestart(running);
    await running.router.invoke('settings:set-credentials', [{ clientId: 'client-1', clientSecret: 'secret-1' }]);
    await restarted;
    await expect(request(sandbox.urls.api)).rejects.toThrow(/ECONNREFUSED/);
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

  it('when neither the new nor the previous settings start, still loads the panel to change them or restart', async () => {
    await onKick();
    const running = await startHost();
    refuse = () => true;
    const failed = nextRestart(running);
    settings.update({ tunnel: 'off' });
    expect((await failed).message).toMatch(/^Greenroom could not start with the tunnel, nor with the previous/);
    expect(await running.router.invoke('chat:history', [])).toMatchObject({
      ok: false,
      error: { code: 'Internal', message: expect.stringMatching(/^Greenroom is stopped: neither the new settings/) },
    });
    // The panel still loads and shows why, with Restart now.
    expect(await running.router.invoke('app:snapshot', [])).toMatchObject({
      ok: true,
      value: { settings: { notApplied: { reason: expect.stringMatching(/nor with the previous settings/) } } },
    });

    // Putting the setting back starts Greenroom again, on its own.
    refuse = (config) => config.tunnel.setting === 'off';
    const back = nextRestart(running);
    expect(await running.router.invoke('settings:update', [{ tunnel: 'localtunnel' }])).toMatchObject({ ok: true });
    expect((await back).message).toMatch(/^Greenroom now runs with the saved settings/);
    expect(await running.router.invoke('chat:history', [])).toEqual({ ok: true, value: [] });
    expect(running.notApplied()).toBeNull();

    // And Restart now works from that state too.
    refuse = () => true;
    const failedAgain = nextRestart(running);
    settings.update({ tunnel: 'off' });
    await failedAgain;
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

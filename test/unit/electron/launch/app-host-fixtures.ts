/**
 * What the app-host.test files share: their fixtures and helpers.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach } from 'vitest';
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
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import { createFakeWebhookPort, type FakeWebhookPort } from '../app/fake-webhook-port';

export const ENV = {
  // Kick mode talks to nothing in these tests; the addresses only have to parse.
  GREENROOM_KICK_API_URL: 'http://127.0.0.1:9',
  GREENROOM_KICK_AUTH_URL: 'http://127.0.0.1:9',
  GREENROOM_SANDBOX_ACTIVITY: 'off',
  GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
};

/** Plays the system browser: follows the sandbox's auto-approved authorize URL to our loopback callback. */
export async function visit(url: string): Promise<void> {
  let next: string | undefined = url;
  for (let hops = 0; next && hops < 5; hops++) {
    const res: Awaited<ReturnType<typeof request>> = await request(next);
    await res.body.text();
    const location: unknown = res.headers.location;
    next = typeof location === 'string' ? new URL(location, next).href : undefined;
  }
}

export function chat(content: string): KickEvent {
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
export function unableToListen(port: FakeWebhookPort): WebhookPort {
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

export const fx = {} as {
  dir: string;
  settings: SettingsStore;
  secrets: MemorySecretStore;
  host: AppHost | null;
  sandboxes: KeptSandbox;
  refuse: (config: AppConfig) => boolean;
  gate: Promise<void> | null;
  atGate: () => void;
};

export const ports: FakeWebhookPort[] = [];
export const logs: string[] = [];
/** Configurations whose webhook side cannot start. */

/** Held open to look at requests made while an app is being swapped in; `atGate` hears a build wait. */

export async function startHost(): Promise<AppHost> {
  const holder: { host: AppHost | null } = { host: null };
  const created = await createAppHost({
    resolveConfig: async () =>
      resolveConfig({
        env: ENV,
        settings: fx.settings.values(),
        storedClientSecret: await fx.secrets.get(SECRET_KEYS.clientSecret),
        dataDir: fx.dir,
      }),
    build: async (config) => {
      if (fx.gate) {
        fx.atGate();
        await fx.gate;
      }
      // As launch-greenroom.ts builds them: one embedded sandbox kept across apps in sandbox mode.
      const sandbox = await fx.sandboxes.lend(config);
      return createApp(config, {
        clock: new AdjustableClock(),
        openExternal: visit,
        ...(sandbox ? { sandbox } : {}),
        secretStore: fx.secrets,
        webhooks: (deps) => {
          const port = createFakeWebhookPort(fx.dir);
          port.deps = deps;
          ports.push(port);
          return fx.refuse(config) ? unableToListen(port) : port;
        },
        log: (line) => logs.push(line),
        dataDir: fx.dir,
        settings: fx.settings,
        restart: () => holder.host!.apply({ force: true }),
        notApplied: () => holder.host?.notApplied() ?? null,
      });
    },
    onSettingsChange: (listener) => fx.settings.onChange(listener),
    log: (line) => logs.push(line),
  });
  holder.host = created;
  fx.host = created;
  await created.start();
  return created;
}

/** Resolves with the next `app:restarted` the host announces. */
export const nextRestart = (on: AppHost): Promise<EventPayloads['app:restarted']> =>
  new Promise((resolve) => {
    const off = on.events.on('app:restarted', (payload) => {
      off();
      resolve(payload);
    });
  });

/** Kick mode: a client id in the settings and its secret in the store. */
export async function onKick(): Promise<void> {
  fx.settings.setClientId('client-1');
  await fx.secrets.set(SECRET_KEYS.clientSecret, 'secret-1');
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(() => {
    fx.dir = mkdtempSync(join(tmpdir(), 'greenroom-host-'));
    fx.settings = openSettings(fx.dir, { randomBytes });
    // The loopback sign-in listener takes a free port; the sandbox registers whatever it picked.
    fx.settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
    fx.secrets = new MemorySecretStore();
    fx.sandboxes = keepSandbox({
      clock: new AdjustableClock(),
      log: (line) => logs.push(line),
      secretStore: fx.secrets,
    });
    fx.host = null;
    ports.length = 0;
    logs.length = 0;
    fx.refuse = () => false;
    fx.gate = null;
    fx.atGate = () => undefined;
  });

  afterEach(async () => {
    await fx.host?.stop();
    await fx.sandboxes.close();
    rmSync(fx.dir, { recursive: true, force: true });
  });
}

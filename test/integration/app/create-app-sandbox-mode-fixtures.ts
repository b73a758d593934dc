/**
 * What the create-app-sandbox-mode.test files share: their fixtures and helpers.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Result } from '../../../shared/errors';
import type { EventChannel, EventPayloads, InvokeResults } from '../../../shared/ipc-contract';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { createSandboxWebhookPort, type SandboxWebhookPort } from './sandbox-webhook-port';
import { consentBrowser } from './create-app-fixtures';

export const fx = {} as {
  dir: string;
  app: GreenroomApp;
  sandbox: Sandbox;
  port: SandboxWebhookPort | undefined;
};

export const browser = consentBrowser(STREAMER_USER_ID);
export const logs: string[] = [];
export const received: { [E in EventChannel]: EventPayloads[E][] } = {
  'kick:event': [],
  'chat:deleted': [],
  'chat:shown': [],
  'chat:replaced': [],
  'mod:action': [],
  'session:changed': [],
  'health:changed': [],
  'settings:changed': [],
  'app:restarted': [],
  'stream:changed': [],
  'alerts:changed': [],
  'views:changed': [],
  'obs:changed': [],
  'chat:room-changed': [],
  'history:changed': [],
};

/** Invokes through the router as a transport would, and unwraps a success. */
export async function call<C extends keyof InvokeResults>(channel: C, ...args: unknown[]): Promise<InvokeResults[C]> {
  const result = (await fx.app.router.invoke(channel, args)) as Result<InvokeResults[C]>;
  if (!result.ok) {
    throw new Error(`${channel} failed: ${result.error.code}: ${result.error.message}`);
  }
  return result.value;
}

/**
 * The hooks every file of this group runs around each test. `liveSocket`: Kick's live chat connection
 * switched on (it is off by default).
 */
export function useSetup(options: { liveSocket?: boolean } = {}): void {
  beforeAll(async () => {
    fx.dir = mkdtempSync(join(tmpdir(), 'greenroom-app-'));
    const settings = openSettings(fx.dir, { randomBytes });
    // Port 0: the loopback listener picks a free port, and sandbox mode registers whatever it picked.
    settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
    if (options.liveSocket) {
      settings.setLiveSocket({ ...settings.values().liveSocket, enabled: true });
    }
    const config = resolveConfig({
      env: { GREENROOM_SANDBOX_ACTIVITY: 'off' },
      settings: settings.values(),
      storedClientSecret: null,
      dataDir: fx.dir,
    });
    fx.app = await createApp(config, {
      clock: systemClock,
      openExternal: (url) => browser.open(url),
      secretStore: new MemorySecretStore(),
      webhooks: (deps) => (fx.port = createSandboxWebhookPort(deps)),
      log: (line) => logs.push(line),
      dataDir: fx.dir,
      settings,
    });
    fx.sandbox = fx.app.sandbox!;
    for (const channel of Object.keys(received) as EventChannel[]) {
      fx.app.events.on(channel, (payload) => (received[channel] as unknown[]).push(payload));
    }
    await fx.app.start();
  });

  afterAll(async () => {
    await fx.app?.stop();
    rmSync(fx.dir, { recursive: true, force: true });
  });
}

/**
 * What the sandbox-remembers tests share: an app in sandbox mode built on a data dir the test keeps, with
 * the secret store Greenroom uses outside Electron (encrypted, on disk), so a second app on the same dir
 * is a restart.
 */
import { randomBytes } from 'node:crypto';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { createNodeSecretStore } from '../../../electron/secrets/node-secret-store';
import type { Result } from '../../../shared/errors';
import type { InvokeResults } from '../../../shared/ipc-contract';
import { createSandboxWebhookPort } from './sandbox-webhook-port';

export interface StartedApp {
  app: GreenroomApp;
  /** Lines the app printed for the streamer (a file moved aside). */
  notices: string[];
  logs: string[];
}

/** Builds and starts an app in sandbox mode on `dir`; `open` plays the system browser. */
export async function startSandboxApp(dir: string, open: (url: string) => Promise<void>): Promise<StartedApp> {
  const notices: string[] = [];
  const logs: string[] = [];
  const settings = openSettings(dir, { randomBytes });
  // Port 0: the loopback listener picks a free port, and sandbox mode registers whatever it picked.
  settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
  const config = resolveConfig({
    env: { GREENROOM_SANDBOX_ACTIVITY: 'off' },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir: dir,
  });
  const app = await createApp(config, {
    clock: systemClock,
    openExternal: open,
    secretStore: createNodeSecretStore(dir, { log: (line) => logs.push(line) }),
    webhooks: (deps) => createSandboxWebhookPort(deps),
    log: (line) => logs.push(line),
    notice: (line) => notices.push(line),
    dataDir: dir,
    settings,
  });
  await app.start();
  return { app, notices, logs };
}

/** Invokes through the router as a transport would, and unwraps a success. */
export async function call<C extends keyof InvokeResults>(
  app: GreenroomApp,
  channel: C,
  ...args: unknown[]
): Promise<InvokeResults[C]> {
  const result = (await app.router.invoke(channel, args)) as Result<InvokeResults[C]>;
  if (!result.ok) {
    throw new Error(`${channel} failed: ${result.error.code}: ${result.error.message}`);
  }
  return result.value;
}

/**
 * Starting Greenroom, shared by the desktop app (electron/main.ts) and the panel-only mode
 * (electron/panel-main.ts): data dir → settings → secret store → configuration → the app (createApp, held by
 * the app host, which builds it again when a setting it was built from changes) → the panel server for the
 * OBS dock → start. Each entry passes only what differs: the secret store, the
 * browser opener and, on the desktop, the window actions.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { systemClock, type Clock } from '../core/clock';
import type { OpenExternal } from '../kick/auth/sign-in';
import { resolveConfig, resolveDataDir, type Env } from '../app/config';
import type { AppEvents } from '../app/app-events';
import { createApp, type GreenroomApp } from '../app/create-app';
import { openSettings } from '../app/settings';
import type { WebhookPortFactory } from '../app/webhook-port';
import type { ShellPort } from '../ipc/handlers';
import type { Router } from '../ipc/router';
import { startPanelServer, type PanelServer } from '../panel-server/panel-server';
import { loadOrCreatePanelToken } from '../panel-server/panel-token';
import { SECRET_KEYS, type SecretStore } from '../secrets/secret-store';
import { type AppHost, createAppHost } from './app-host';

export type LaunchSecretStore = SecretStore & { backend?: string; degraded?: boolean };

export interface LaunchDeps {
  env: Env;
  /** The data dir when `GREENROOM_DATA_DIR` is not set. */
  defaultDataDir: string;
  /** The built renderer the panel server serves. */
  staticDir: string;
  openSecretStore: (dataDir: string) => Promise<LaunchSecretStore>;
  openExternal: OpenExternal;
  webhooks: WebhookPortFactory;
  shell?: ShellPort;
  clock?: Clock;
  log: (line: string) => void;
  /** Panel-only mode has nothing without it; the desktop app logs the failure and carries on. */
  panelRequired: boolean;
}

export interface Launched {
  /** The app serving now; a settings change may build a new one in place (app-host.ts). */
  readonly app: GreenroomApp;
  /** What both transports use: the serving app's router and events, and `app:restarted`. */
  router: Router;
  events: AppEvents;
  /** Null when the desktop app could not start it (the port was taken). */
  panel: PanelServer | null;
  dataDir: string;
  /** Stops the panel server, then the app. */
  stop(): Promise<void>;
}

/** A start-up failure worth one plain line to the user. */
export class LaunchError extends Error {
  override readonly name = 'LaunchError';
}

async function startPanel(host: AppHost, deps: LaunchDeps, dataDir: string, emoteHost: string): Promise<PanelServer> {
  const { app } = host;
  const port = app.config.panelPort;
  try {
    return await startPanelServer({
      router: host.router,
      events: host.events,
      host: '127.0.0.1',
      port,
      staticDir: deps.staticDir,
      // Kept in the data dir so the dock URL pasted into OBS survives restarts.
      token: loadOrCreatePanelToken(dataDir),
      log: deps.log,
      // Both Kick's emote host and, in sandbox mode, the sandbox's: the policy is fixed while the server runs,
      // and saving credentials switches the app from one to the other (app-host.ts).
      imageHosts: [...(app.sandbox ? [app.sandbox.urls.api] : []), emoteHost],
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new LaunchError(
        `the panel port ${port} is in use; set GREENROOM_PANEL_PORT to another port (0 picks a free one)`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** Builds and starts everything; on failure, whatever was started is stopped again. */
export async function launchGreenroom(deps: LaunchDeps): Promise<Launched> {
  const { log } = deps;
  const dataDir = resolveDataDir(deps.env, deps.defaultDataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const settings = openSettings(dataDir, { log, randomBytes });
  const secretStore = await deps.openSecretStore(dataDir);
  // Holders rather than `let`s, so the getters below always read the current server and host.
  const started: { panel: PanelServer | null; host: AppHost | null } = { panel: null, host: null };
  const host = await createAppHost({
    resolveConfig: async () =>
      resolveConfig({
        env: deps.env,
        settings: settings.values(),
        storedClientSecret: await secretStore.get(SECRET_KEYS.clientSecret),
        dataDir,
      }),
    build: (config) =>
      createApp(config, {
        clock: deps.clock ?? systemClock,
        openExternal: deps.openExternal,
        secretStore,
        webhooks: deps.webhooks,
        log,
        dataDir,
        settings,
        ...(deps.shell ? { shell: deps.shell } : {}),
        dockUrl: () => started.panel?.url ?? null,
        restart: () => started.host?.apply({ force: true }) ?? Promise.resolve(),
        notApplied: () => started.host?.notApplied() ?? null,
      }),
    onSettingsChange: (listener) => settings.onChange(listener),
    log,
  });
  started.host = host;
  try {
    try {
      started.panel = await startPanel(host, deps, dataDir, settings.values().emoteHost);
    } catch (error) {
      if (deps.panelRequired) {
        throw error;
      }
      log(`panel: not started: ${error instanceof Error ? error.message : String(error)}`);
    }
    await host.start();
  } catch (error) {
    await started.panel?.close();
    await host.stop();
    throw error;
  }
  const { panel } = started;
  let stopping: Promise<void> | undefined;
  return {
    get app() {
      return host.app;
    },
    router: host.router,
    events: host.events,
    panel,
    dataDir,
    stop: () =>
      (stopping ??= (async () => {
        await panel?.close();
        await host.stop();
      })()),
  };
}

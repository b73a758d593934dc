/**
 * Starting Greenroom, shared by the desktop app (electron/main.ts) and the panel-only mode
 * (electron/panel-main.ts): data dir → settings → secret store → configuration → the app (createApp, held by
 * the app host, which builds it again when a setting it was built from changes) → the panel server for the
 * OBS dock → start. Each entry passes only what differs: the secret store, the
 * browser opener and, on the desktop, the window actions.
 *
 * A damaged or unwritable file on the way is told to the streamer in one plain line (`notice`) and the start
 * goes on; what cannot be worked around (a taken port, a data dir that cannot be made) is a LaunchError
 * whose message is that one line.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock, type Clock } from '../core/clock';
import type { OpenExternal } from '../kick/auth/sign-in';
import { isAppError } from '../../shared/errors';
import { type AppConfig, ENV, panelPortOf, resolveConfig, resolveDataDir, type Env } from '../app/config';
import type { AppEvents } from '../core/app-events';
import { createApp, type GreenroomApp } from '../app/create-app';
import { openSettings, SETTINGS_FILE_NAME } from '../app/settings';
import type { WebhookPortFactory } from '../app/webhook-port';
import type { DiagnosticsPort, ShellPort } from '../ipc/handlers';
import type { Router } from '../ipc/router';
import { startPanelServer, type PanelServer } from '../panel-server/panel-server';
import { loadOrCreatePanelToken } from '../panel-server/panel-token';
import { fsReason } from '../secrets/damaged-file';
import { SECRET_KEYS, type SecretStore } from '../secrets/secret-store';
import { type AppHost, createAppHost } from './app-host';
import { dataDirNotices, setAsideMisplacedEntries, tightenDataFolders } from './data-dir-check';
import { keepSandbox } from './kept-sandbox';
import { isGreenroomPanel, probablyRunningText } from './running-greenroom';
import { createStartupNotices } from './startup-notices';

export type LaunchSecretStore = SecretStore & { backend?: string; degraded?: boolean };

export interface LaunchDeps {
  env: Env;
  /** The data dir when `GREENROOM_DATA_DIR` is not set. */
  defaultDataDir: string;
  /** The built renderer the panel server serves. */
  staticDir: string;
  /** `notice`: where the store says a damaged file was moved aside (printed, and shown in the panel). */
  openSecretStore: (dataDir: string, notice: (line: string) => void) => Promise<LaunchSecretStore>;
  openExternal: OpenExternal;
  webhooks: WebhookPortFactory;
  shell?: ShellPort;
  /** "Save diagnostics" (docs/logging.md), built by the entry that owns the logger. */
  diagnostics?: DiagnosticsPort;
  clock?: Clock;
  log: (line: string) => void;
  /** A start-up problem the streamer should read (a damaged file moved aside); `log` when absent. */
  notice?: (line: string) => void;
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

/**
 * What an entry prints when the start failed: a known failure (bad configuration, a port taken, a file the
 * system refused, whose message names it) is its one line; anything else is a bug and keeps its stack.
 */
export function startFailureText(error: unknown): string {
  const fsError = error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
  if (error instanceof LaunchError || isAppError(error) || fsError) {
    return error.message;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

async function startPanel(
  host: AppHost,
  deps: LaunchDeps,
  dataDir: string,
  emoteHost: string,
  notice: (line: string) => void,
): Promise<PanelServer> {
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
      token: loadOrCreatePanelToken(dataDir, { notice }),
      log: deps.log,
      // Both Kick's emote host and, in sandbox mode, the sandbox's: the policy is fixed while the server runs,
      // and saving credentials switches the app from one to the other (app-host.ts).
      imageHosts: [...(app.sandbox ? [app.sandbox.urls.api] : []), emoteHost],
      overlays: {
        hub: () => host.app.overlays.hub,
        key: () => host.app.overlays.key(),
        emote: (id) => host.app.overlays.emote(id),
        dataDir,
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      // A second start while the first runs: say so, rather than only that a port is taken; on any doubt the
      // plain line below ([a taken panel port](../../docs/decisions.md#a-taken-panel-port-names-no-page)).
      if (await isGreenroomPanel(port)) {
        throw new LaunchError(probablyRunningText(port), { cause: error });
      }
      throw new LaunchError(
        `the panel port ${port} is in use; set GREENROOM_PANEL_PORT to another port (0 picks a free one)`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** The receiver's listen failure, as one line naming the variable or setting that moves it. */
function webhookPortTaken(error: unknown, config: AppConfig, dataDir: string): LaunchError | null {
  const { port, portSource } = config.webhook;
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const listen = cause as NodeJS.ErrnoException & { port?: number };
    if (listen.code === 'EADDRINUSE' && listen.port === port) {
      const where =
        portSource === 'env'
          ? ENV.webhookPort
          : `webhookPort in ${join(dataDir, `${SETTINGS_FILE_NAME}.json`)} (or ${ENV.webhookPort})`;
      return new LaunchError(
        `the webhook port ${port} is in use; set ${where} to another port, and point your own tunnel or proxy ` +
          'there if you use one (0 picks a free one)',
        { cause: error },
      );
    }
  }
  return null;
}

/**
 * A second start while Greenroom already serves the panel on its port stops before it opens anything in the data
 * dir: it would otherwise open the running one's journal, history and sandbox beside it, only to be refused the port
 * after ([a taken panel port](../../docs/decisions.md#a-taken-panel-port-names-no-page)). A port taken by something
 * else is found where the panel server listens, as before.
 */
async function refuseSecondStart(deps: LaunchDeps): Promise<void> {
  if (!deps.panelRequired) {
    return;
  }
  const port = panelPortOf(deps.env);
  if (port !== 0 && (await isGreenroomPanel(port))) {
    throw new LaunchError(probablyRunningText(port));
  }
}

/** The data dir, made if missing; a folder that cannot be made is one plain line. */
function makeDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new LaunchError(
      `the data folder ${dataDir} cannot be created (${fsReason(error)}); set ${ENV.dataDir} to a folder you can write`,
      { cause: error },
    );
  }
}

/** Builds and starts everything; on failure, whatever was started is stopped again. */
export async function launchGreenroom(deps: LaunchDeps): Promise<Launched> {
  const { log } = deps;
  // Printed once, and shown in the panel (the app snapshot's `notices`).
  const notices = createStartupNotices(deps.notice ?? log, log);
  const { notice } = notices;
  const clock = deps.clock ?? systemClock;
  const dataDir = resolveDataDir(deps.env, deps.defaultDataDir);
  await refuseSecondStart(deps);
  makeDataDir(dataDir);
  dataDirNotices(dataDir).forEach((line) => notice(line));
  setAsideMisplacedEntries(dataDir, clock.now()).forEach((line) => notice(line));
  tightenDataFolders(dataDir).forEach((line) => notice(line));
  const settings = openSettings(dataDir, { log, notice, randomBytes });
  const secretStore = await deps.openSecretStore(dataDir, notice);
  // Holders rather than `let`s, so the getters below always read the current server and host.
  const started: { panel: PanelServer | null; host: AppHost | null } = { panel: null, host: null };
  const sandboxes = keepSandbox({ clock, log, notice, secretStore });
  const host = await createAppHost({
    resolveConfig: async () =>
      resolveConfig({
        env: deps.env,
        settings: settings.values(),
        storedClientSecret: await secretStore.get(SECRET_KEYS.clientSecret),
        dataDir,
      }),
    build: async (config) => {
      const sandbox = await sandboxes.lend(config);
      return createApp(config, {
        clock,
        openExternal: deps.openExternal,
        secretStore,
        webhooks: deps.webhooks,
        log,
        notice,
        notices: notices.list,
        dataDir,
        settings,
        ...(deps.shell ? { shell: deps.shell } : {}),
        ...(deps.diagnostics ? { diagnostics: deps.diagnostics } : {}),
        dockUrl: () => started.panel?.url ?? null,
        restart: () => started.host?.apply({ force: true }) ?? Promise.resolve(),
        notApplied: () => started.host?.notApplied() ?? null,
        ...(sandbox ? { sandbox } : {}),
      });
    },
    onSettingsChange: (listener) => settings.onChange(listener),
    log,
  }).catch(async (error: unknown) => {
    await sandboxes.close();
    throw error;
  });
  started.host = host;
  const { config } = host.app;
  try {
    try {
      started.panel = await startPanel(host, deps, dataDir, settings.values().emoteHost, notice);
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
    await sandboxes.close();
    throw webhookPortTaken(error, config, dataDir) ?? error;
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
        await sandboxes.close();
      })()),
  };
}

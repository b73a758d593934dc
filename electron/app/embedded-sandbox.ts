/**
 * Sandbox mode: with no Kick app configured, Greenroom starts the Kick sandbox inside itself and talks to
 * it exactly as it would to Kick, with gentle simulated channel activity so the panel is not empty.
 * Sign-in shows the sandbox's consent page (auto-approve stays off unless configured for tests). While it
 * runs, its admin URL and per-start admin token sit in the data dir's `sandbox.json` (0600), so
 * `npm run sandbox -- trigger …` reaches it without flags (sandbox/discovery.ts).
 *
 * Its world (the channel, rewards, subscriptions, the sign-in's tokens as digests) is kept in the data dir's
 * `sandbox-world.json` across restarts, so someone trying Greenroom stays signed in on the same channel
 * until they choose "Reset the sandbox" ([sandbox notes](../../docs/sandbox.md#what-the-saved-world-keeps)).
 * A sign-in and a subscription are on disk before the app hears of them, so even a crash keeps them.
 */
import type { Clock } from '../core/clock';
import type { OpenExternal } from '../kick/auth/sign-in';
import type { KickConfig } from '../kick/create-kick';
import { join } from 'node:path';
import {
  APP_SANDBOX_FILE,
  removeSandboxDiscovery,
  type SandboxDiscovery,
  writeSandboxDiscovery,
} from '../../sandbox/discovery';
import { createSandbox, loadOrCreateSigningKeys, type Sandbox } from '../../sandbox/index';
import { saveWorld } from '../../sandbox/persist';
import { createWorldSaver, readWorldFile, SANDBOX_WORLD_FILE, type SaveTimers } from '../../sandbox/persist-file';
import { startScenario } from '../../sandbox/scenarios';
import { moveAside } from '../secrets/damaged-file';

/** The data dir file naming the running embedded sandbox (its admin URL and token), for tools and the panel. */
export { APP_SANDBOX_FILE };
/** The ports `npm run sandbox` listens on by default, kept off the redirect URL (electron/app/own-ports.ts). */
export { DEFAULT_SANDBOX_PORT } from '../../sandbox/admin/cli-usage';

/** The running embedded sandbox and what the Kick client needs from it. */
export interface EmbeddedSandbox {
  sandbox: Sandbox;
  /** The Kick client's endpoints and credentials: the sandbox's. */
  kickConfig: Pick<KickConfig, 'apiUrl' | 'authUrl' | 'clientId' | 'clientSecret'>;
  /**
   * Wraps the browser opener: the sign-in's redirect URI is registered with the sandbox app first, as the
   * developer would in Kick's dashboard, so a redirect port picked at run time (port 0) still matches.
   */
  opener(open: OpenExternal): OpenExternal;
  /** Starts the endless simulated activity (no-op when switched off). */
  startActivity(): void;
  /** Back to the seeded world, saved at once: the channel, rewards and every token go. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The file the embedded sandbox keeps its world in. */
export { SANDBOX_WORLD_FILE };

/** What the embedded sandbox reads of the app's config (config.ts's `AppConfig` has these fields). */
export interface EmbeddedSandboxConfig {
  sandbox: { autoApproveUserId: number | null; simulatedActivity: boolean } | null;
  dataDir: string;
  redirectUri: string;
}

/** Starts the sandbox on free loopback ports, with the configured redirect URI registered. */
export async function startEmbeddedSandbox(
  config: EmbeddedSandboxConfig,
  deps: {
    clock: Clock;
    log: (line: string) => void;
    /** A plain line for the streamer (a saved world moved aside); `log` when absent. */
    notice?: (line: string) => void;
    /** The saves' timers (tests); real ones when absent. */
    saveTimers?: SaveTimers;
  },
): Promise<EmbeddedSandbox> {
  const options = config.sandbox ?? { autoApproveUserId: null, simulatedActivity: false };
  const worldPath = join(config.dataDir, SANDBOX_WORLD_FILE);
  const saved = readWorldFile({
    path: worldPath,
    setAside: (path) => moveAside(path, deps.clock.now()),
    notice: deps.notice ?? deps.log,
  });
  const sandbox = await createSandbox({
    ...(saved.world ? { savedWorld: saved.world } : {}),
    keys: await loadOrCreateSigningKeys(join(config.dataDir, 'sandbox-signing-key.pem')),
    clock: deps.clock,
    redirectUris: [config.redirectUri],
    autoApproveUserId: options.autoApproveUserId,
    log: deps.log,
  });
  const saver = saved.writable
    ? createWorldSaver({
        path: worldPath,
        snapshot: () => saveWorld(sandbox.ctx.state, sandbox.urls.api),
        log: deps.log,
        ...(deps.saveTimers ? { timers: deps.saveTimers } : {}),
      })
    : null;
  const stopSaving = sandbox.onChange(() => saver?.changed());
  if (saver) {
    sandbox.keepLastingChangesWith(() => saver.saveNow());
  }
  let activityJobId: string | null = null;
  const described = sandbox.describe();
  const discovery: SandboxDiscovery = {
    adminUrl: described.adminUrl,
    adminToken: described.adminToken,
    pid: process.pid,
  };
  // Only the command-line tools need the file; a data dir that refuses it must not stop the app.
  const published = await writeSandboxDiscovery(config.dataDir, APP_SANDBOX_FILE, discovery).then(
    () => true,
    (error: unknown) => {
      deps.log(`sandbox: could not write ${APP_SANDBOX_FILE} for npm run sandbox (${String(error)})`);
      return false;
    },
  );
  return {
    sandbox,
    kickConfig: {
      apiUrl: described.apiUrl,
      authUrl: described.authUrl,
      clientId: described.clientId,
      clientSecret: described.clientSecret,
    },
    opener: (open) => async (url) => {
      const parsed = URL.canParse(url) ? new URL(url) : null;
      const redirectUri = parsed?.searchParams.get('redirect_uri');
      if (parsed?.origin === new URL(sandbox.urls.auth).origin && redirectUri) {
        const registered = sandbox.ctx.app.redirectUris;
        if (!registered.includes(redirectUri)) {
          registered.push(redirectUri);
        }
      }
      await open(url);
    },
    startActivity: () => {
      if (options.simulatedActivity && activityJobId === null) {
        activityJobId = startScenario(sandbox.ctx, sandbox.admin.jobs, 'simulated-activity').job?.job_id ?? null;
      }
    },
    reset: async () => {
      sandbox.reset();
      await saver?.flush();
    },
    close: async () => {
      if (activityJobId !== null) {
        sandbox.admin.jobs.stop(activityJobId);
      }
      if (published) {
        await removeSandboxDiscovery(config.dataDir, APP_SANDBOX_FILE, discovery).catch((error: unknown) =>
          deps.log(`sandbox: could not remove ${APP_SANDBOX_FILE} (${String(error)})`),
        );
      }
      await sandbox.close();
      stopSaving();
      await saver?.stop();
    },
  };
}

/**
 * Sandbox mode: with no Kick app configured, Greenroom starts the Kick sandbox inside itself and talks to
 * it exactly as it would to Kick, with gentle simulated channel activity so the panel is not empty.
 * Sign-in shows the sandbox's consent page (auto-approve stays off unless configured for tests). While it
 * runs, its admin URL and per-start admin token sit in the data dir's `sandbox.json` (0600), so
 * `npm run sandbox -- trigger …` reaches it without flags (sandbox/discovery.ts).
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
import { startScenario } from '../../sandbox/scenarios';
import type { AppConfig } from './config';

/** The data dir file naming the running embedded sandbox (its admin URL and token), for tools and the panel. */
export { APP_SANDBOX_FILE };

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
  close(): Promise<void>;
}

/** Starts the sandbox on free loopback ports, with the configured redirect URI registered. */
export async function startEmbeddedSandbox(
  config: AppConfig,
  deps: { clock: Clock; log: (line: string) => void },
): Promise<EmbeddedSandbox> {
  const options = config.sandbox ?? { autoApproveUserId: null, simulatedActivity: false };
  const sandbox = await createSandbox({
    keys: await loadOrCreateSigningKeys(join(config.dataDir, 'sandbox-signing-key.pem')),
    clock: deps.clock,
    redirectUris: [config.redirectUri],
    autoApproveUserId: options.autoApproveUserId,
    log: deps.log,
  });
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
    },
  };
}

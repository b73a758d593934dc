/**
 * The OBS journeys' app as a streamer trying Greenroom runs it: `npm start` with no Kick app, so on its
 * embedded sandbox ([the Kick sandbox](../../docs/sandbox.md)), the setup guide done, signed in on the
 * sandbox's channel. In sandbox mode events arrive straight from the sandbox, so nothing warns of a missing
 * tunnel or keychain: what the OBS screenshots show is what that streamer sees. OBS streams to the
 * embedded sandbox's own RTMP ingest ([Kick's ingest in the sandbox](../../docs/obs.md#kicks-ingest-in-the-sandbox)).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { request } from 'undici';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, type PanelClient, value } from './panel';
import { embeddedSandbox, type SandboxAdmin, STREAMER_USER_ID } from './sandbox-admin';
import { freePort } from './webhook-recorder';

export interface SandboxModeWorld {
  dataDir: string;
  /** The app's embedded sandbox, driven through its admin API as `npm run sandbox -- trigger` does. */
  sandbox: { admin: SandboxAdmin };
  browser: Browser;
  app: AppRun;
  panel: PanelClient;
  close(): Promise<void>;
}

/** Follows redirects as a browser would: the sandbox auto-approves and sends it to the app's callback. */
async function visit(url: string): Promise<void> {
  let next: string | undefined = url;
  for (let hops = 0; next && hops < 5; hops++) {
    const res: Awaited<ReturnType<typeof request>> = await request(next);
    await res.body.text();
    const location = res.headers.location;
    next = typeof location === 'string' ? new URL(location, next).href : undefined;
  }
}

export async function startSandboxModeWorld(): Promise<SandboxModeWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-obs-'));
  // A streamer who has been here before: the guide done, the redirect port free for the sign-in listener.
  writeFileSync(
    join(dataDir, `${SETTINGS_FILE_NAME}.json`),
    JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback`, setupGuideDone: true }),
  );
  const browser = await launchChromium();
  const app = await startApp({
    dataDir,
    env: { GREENROOM_PANEL_PORT: String(await freePort()), GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID) },
  });
  const panel = connectPanel(app);
  const admin = await embeddedSandbox(app);
  const from = app.stdout.lines.length;
  const signingIn = value(panel.api.auth.startLogin({}));
  await visit((await app.stdout.waitFor(/^Open this link to continue: (\S+)$/, { from }))[1]!);
  await signingIn;
  // A journey's first event must not race the app's subscribing after sign-in.
  const deadline = Date.now() + 30_000;
  while ((await admin.counts()).eventSubscriptions < KICK_EVENT_TYPES.length) {
    if (Date.now() > deadline) {
      throw new Error('the app did not subscribe to its event types within 30 s of signing in');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    dataDir,
    sandbox: { admin },
    browser,
    app,
    panel,
    async close() {
      panel.close();
      await browser.close();
      await app.stop();
      await killLeftovers();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The overlays journeys' world (docs/overlays.md): a standalone sandbox, a recorder in front of the app's
 * fixed webhook port, and the built app on a fixed panel port (so an overlay URL pasted into OBS stays
 * valid across restarts, as on a streamer's machine), signed in through the sandbox.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { request } from 'undici';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import type { OverlaySettings } from '../../shared/overlays';
import { type AppRun, killLeftovers, ROOT, startApp } from './app-process';
import { connectPanel, launchChromium, type PanelClient, value } from './panel';
import { type StandaloneSandbox, startStandaloneSandbox } from './sandbox-admin';
import { freePort, startWebhookRecorder, type WebhookRecorder } from './webhook-recorder';

const SCREENSHOTS = join(ROOT, 'test-results', 'journeys');

/**
 * Saves a screenshot as a test artefact, and into docs/screenshots/ when asked to update them. An overlay
 * is transparent; `scene` draws it over a dark backdrop, as it would sit on a game.
 */
export async function screenshot(page: Page, name: string, scene = false): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  if (scene) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 38, g: 44, b: 52, a: 1 } });
  }
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
    copyFileSync(path, join(ROOT, 'docs', 'screenshots', `${name}.png`));
  }
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

export interface OverlayWorld {
  dataDir: string;
  sandbox: StandaloneSandbox;
  recorder: WebhookRecorder;
  browser: Browser;
  app: AppRun;
  panel: PanelClient;
  /**
   * Stops the app (SIGTERM, or SIGKILL with `kill`) and starts it again on the same data dir and ports;
   * `whileDown` runs between the two.
   */
  restart(options?: { kill?: boolean; whileDown?: () => Promise<void> }): Promise<void>;
  /** Changes overlay settings through the contract, as the Overlays view's Save does. */
  updateOverlays(change: (settings: OverlaySettings) => void): Promise<void>;
  close(): Promise<void>;
}

export async function startOverlayWorld(): Promise<OverlayWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-overlays-'));
  const webhookPort = await freePort();
  const panelPort = await freePort();
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  const recorder = await startWebhookRecorder(`http://127.0.0.1:${webhookPort}/kick/webhook`);
  const sandbox = await startStandaloneSandbox({ redirectUri, webhookUrl: recorder.url, autoApprove: true });
  // Emote images from the sandbox, as a streamer's come from Kick's CDN.
  const emoteHost = `${new URL(sandbox.appEnv.GREENROOM_KICK_API_URL!).origin}/`;
  writeFileSync(
    join(dataDir, `${SETTINGS_FILE_NAME}.json`),
    JSON.stringify({ version: 2, redirectUri, webhookPort, emoteHost }),
  );
  const env = { ...sandbox.appEnv, GREENROOM_WEBHOOK_PORT: '', GREENROOM_PANEL_PORT: String(panelPort) };
  const browser = await launchChromium();

  const world = {
    dataDir,
    sandbox,
    recorder,
    browser,
    app: await startApp({ dataDir, env }),
  } as OverlayWorld;
  world.panel = connectPanel(world.app);
  const from = world.app.stdout.lines.length;
  const signingIn = value(world.panel.api.auth.startLogin({}));
  await visit((await world.app.stdout.waitFor(/^Open this link to continue: (\S+)$/, { from }))[1]!);
  await signingIn;
  // Kick delivers only to subscriptions that exist: a journey's first message must not race the app's
  // subscribing after sign-in (on a loaded CI machine it did, and that message never arrived).
  await waitForSubscriptions(sandbox, KICK_EVENT_TYPES.length);

  world.restart = async (options = {}) => {
    world.panel.close();
    await (options.kill ? world.app.kill() : world.app.stop());
    await options.whileDown?.();
    world.app = await startApp({ dataDir, env });
    world.panel = connectPanel(world.app);
  };
  world.updateOverlays = async (change) => {
    const settings = await value(world.panel.api.settings.get());
    change(settings.overlays);
    await value(world.panel.api.settings.update({ overlays: settings.overlays }));
  };
  world.close = async () => {
    world.panel?.close();
    await browser.close();
    await world.app?.stop();
    await sandbox.close();
    await recorder.close();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return world;
}

/**
 * Records, in the page, every alert that appears (by its Kick message id, in order, a repeat twice) and the most alerts
 * ever on screen at once: installed before the overlay's own script runs.
 */
export const WATCH_ALERTS = `
  window.__alerts = [];
  window.__mostAtOnce = 0;
  const seen = new WeakSet();
  new MutationObserver(() => {
    const shown = document.querySelectorAll('[data-alert-id]');
    window.__mostAtOnce = Math.max(window.__mostAtOnce, shown.length);
    for (const element of shown) {
      // Each element once: an alert played again would be a new element with the same id.
      if (!seen.has(element)) {
        seen.add(element);
        window.__alerts.push(element.getAttribute('data-alert-id'));
      }
    }
  }).observe(document, { subtree: true, childList: true });
`;

/** Resolves once the sandbox holds `count` event subscriptions; throws after 30 s. */
async function waitForSubscriptions(sandbox: StandaloneSandbox, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await sandbox.admin.counts()).eventSubscriptions < count) {
    if (Date.now() > deadline) {
      throw new Error(`the app did not subscribe to ${count} event types within 30 s of signing in`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

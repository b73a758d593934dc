/**
 * End-to-end harness: Greenroom started as `npm start` starts it without Electron (launchGreenroom, the
 * panel server, the embedded sandbox, the real webhook side), driven in Debian's Chromium by playwright-core.
 * The system browser the sign-in opens is a second tab in the same Chromium, so the consent page is
 * clicked like a person would.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { openSettings } from '../../electron/app/settings';
import { launchGreenroom, type Launched } from '../../electron/launch/launch-greenroom';
import { createAppWebhookPort } from '../../electron/app/webhook-port';
import type { Sandbox } from '../../sandbox/index';
import { createNodeSecretStore } from '../../electron/secrets/node-secret-store';

const root = join(import.meta.dirname, '..', '..');
export const SCREENSHOT_DIR = join(root, 'test-results', 'e2e');

export interface E2E {
  launched: Launched;
  sandbox: Sandbox;
  browser: Browser;
  context: BrowserContext;
  /** The panel, loaded from the panel server's URL (as an OBS dock would load it). */
  page: Page;
  /** Tabs the sign-in opened as the "system browser". */
  opened: Page[];
  /** Saves a screenshot of the panel as a test artefact (test-results/e2e/<name>.png). */
  screenshot(name: string, target?: Page): Promise<string>;
  close(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface E2EOptions {
  viewport?: { width: number; height: number };
  autoApprove?: boolean;
  /** Leave the setup guide to open by itself, as on a new install (other specs start past it). */
  firstRun?: boolean;
  /** More environment for the app, e.g. a standalone sandbox's addresses as Kick's. */
  env?: Record<string, string>;
}

export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-e2e-'));
  // The loopback sign-in listener takes a free port; sandbox mode registers whatever it picked.
  openSettings(dataDir, { randomBytes }).update({
    redirectUri: 'http://127.0.0.1:0/callback',
    setupGuideDone: !options.firstRun,
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 860 },
    colorScheme: 'dark',
  });
  const opened: Page[] = [];
  const logs: string[] = [];
  const env: Record<string, string> = {
    GREENROOM_DATA_DIR: dataDir,
    GREENROOM_PANEL_PORT: '0',
    GREENROOM_WEBHOOK_PORT: '0',
    GREENROOM_SANDBOX_ACTIVITY: 'off',
    GREENROOM_TUNNEL: 'off',
    ...options.env,
  };
  if (options.autoApprove) {
    env.GREENROOM_SANDBOX_AUTO_APPROVE = '100001';
  }
  const launched = await launchGreenroom({
    env,
    defaultDataDir: join(dataDir, 'unused'),
    staticDir: join(root, 'out', 'renderer'),
    openSecretStore: (dir) => Promise.resolve(createNodeSecretStore(dir)),
    openExternal: async (url) => {
      const tab = await context.newPage();
      opened.push(tab);
      await tab.goto(url);
    },
    webhooks: createAppWebhookPort,
    log: (line) => void logs.push(line),
    panelRequired: true,
  });
  const sandbox = launched.app.sandbox!;
  const page = await context.newPage();
  await page.goto(launched.panel!.url);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    launched,
    sandbox,
    browser,
    context,
    page,
    opened,
    async screenshot(name, target = page) {
      const path = join(SCREENSHOT_DIR, `${name}.png`);
      await target.screenshot({ path, fullPage: false });
      return path;
    },
    async close() {
      await context.close();
      await browser.close();
      await launched.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Lets the sandbox deliver what is queued (the e2e app runs the sandbox's real-time delivery timer too). */
export async function flushDeliveries(sandbox: Sandbox): Promise<void> {
  await sandbox.delivery.flush();
}

/**
 * Journeys of a new streamer, on the built app in its own process with the panel in Debian's Chromium:
 *
 * 1. First run on the embedded sandbox: the setup guide opens by itself at what applies there, the sandbox
 *    tour (the sandbox has its own app; nothing waits for a tunnel), sign-in is checked on the sandbox's
 *    approval page while the disabled Next says why, and an event fired the way the tour says
 *    (`npm run sandbox -- trigger …`, which finds the running app by itself) completes the test delivery.
 *    Creating the Kick app comes last, for later. Closed once, the guide stays closed.
 * 2. Going live from an OBS dock (340 px wide): the Kick app's credentials are entered in the guide and apply
 *    at once in the same process (Greenroom switches from its sandbox to "Kick", here a standalone sandbox),
 *    sign-in shows its link with Copy and Open in the dock, the link opens in the browser, and live chat
 *    arrives in the dock.
 *
 * They save test-results/journeys/first-run-wizard.png and sign-in-dock.png, the README's pictures of these
 * two moments; with GREENROOM_UPDATE_SCREENSHOTS=1 they also replace docs/screenshots/ (the sign-in link
 * holds a fresh port and state each run, so writing there every run would leave the tree changed).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { type AppRun, cleanEnv, killLeftovers, ROOT, spawnTracked, startApp } from './app-process';
import { exited } from './output-lines';
import { connectPanel, launchChromium, newContext, openPanel, value } from './panel';
import { embeddedSandbox, type StandaloneSandbox, startStandaloneSandbox } from './sandbox-admin';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 15_000 };
const SCREENSHOTS = join(ROOT, 'test-results', 'journeys');

/** Saves a screenshot of `page` as a test artefact, and into docs/screenshots/ when asked to update them. */
async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
    copyFileSync(path, join(ROOT, 'docs', 'screenshots', `${name}.png`));
  }
}
const DOCK = { width: 340, height: 720 };

/** Approves on the sandbox's consent page, in the tab the panel opened as the streamer's browser. */
async function approveIn(tab: Page): Promise<void> {
  await tab.getByRole('button', { name: 'Approve' }).click();
  await tab.getByText('You can close this tab').waitFor(WAIT);
  await tab.close();
}

describe('journey: first run on the embedded sandbox', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let page: Page;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-first-run-'));
    // Only what a streamer's machine would have: the redirect port free for the sign-in listener.
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback` }),
    );
    browser = await launchChromium();
    app = await startApp({ dataDir });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints where its sandbox takes commands, and opens the setup guide by itself', async () => {
    // The printed admin URL is the one in sandbox.json, and it answers with the token kept there.
    const admin = await embeddedSandbox(app);
    expect((await admin.counts()).eventSubscriptions).toBe(0);
    page = await openPanel(await newContext(browser), app);
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.waitFor(WAIT);
    await screenshot(page, 'first-run-wizard');
  });

  it('starts with the sandbox tour, not the Kick app, and never waits for a tunnel', async () => {
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.getByRole('heading', { name: 'What the sandbox is' }).waitFor(WAIT);
    expect(await guide.getByText(/Waiting for the tunnel|Create app/).count()).toBe(0);
  });

  it('checks sign-in on the sandbox approval page, with the disabled Next saying why until then', async () => {
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.getByRole('button', { name: 'Next' }).click();
    const next = guide.getByRole('button', { name: 'Next' });
    expect(await next.isDisabled()).toBe(true);
    const why = page.locator(`#${await next.getAttribute('aria-describedby')}`);
    expect(await why.textContent()).toBe('Sign in first: choose Check sign-in and approve in your browser.');
    expect(await why.isVisible()).toBe(true);
    await guide.getByRole('button', { name: 'Check sign-in' }).last().click();
    const link = guide.getByRole('region', { name: 'Sign-in link' });
    const opening = page.context().waitForEvent('page', WAIT);
    await link.getByRole('button', { name: 'Open link' }).click();
    await approveIn(await opening);
    await guide.getByText(/Signed in as sandbox_streamer/).waitFor(WAIT);
  });

  it('completes the test delivery with an event fired as the tour says, then stays closed', async () => {
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.getByRole('button', { name: 'Next' }).click();
    await guide.getByText('Waiting for a test delivery…').first().waitFor(WAIT);
    // `npm run sandbox -- trigger chat.message.sent`, run in the Greenroom folder: it finds this app's sandbox.
    const cli = spawnTracked(
      process.execPath,
      ['--import', 'tsx', 'sandbox/cli.ts', 'trigger', 'chat.message.sent'],
      cleanEnv({ GREENROOM_DATA_DIR: dataDir }),
    );
    expect((await exited(cli.child)).code, cli.stderr.lines.join('\n')).toBe(0);
    await guide.getByText('A delivery arrived: webhooks reach Greenroom. You are all set.').waitFor(WAIT);
    // Going live comes last: the Kick app, then its credentials, which can wait.
    await guide.getByRole('button', { name: 'Next' }).click();
    await guide.getByRole('region', { name: 'Kick developer settings' }).waitFor(WAIT);
    await guide.getByRole('button', { name: 'Next' }).click();
    await guide.getByRole('button', { name: 'Finish later' }).click();
    await guide.waitFor({ state: 'detached', ...WAIT });
    await page.reload();
    await page.getByRole('tablist').first().waitFor(WAIT);
    expect(await page.getByRole('dialog', { name: 'Set up Greenroom' }).count()).toBe(0);
  });
});

describe('journey: credentials applied live, then sign-in and live chat in a 340 px OBS dock', () => {
  let dataDir: string;
  let kick: StandaloneSandbox;
  let browser: Browser;
  let app: AppRun;
  let dock: Page;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-go-live-'));
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const webhookPort = await freePort();
    // "Kick": a standalone sandbox with the streamer's developer app (redirect and webhook URLs registered).
    kick = await startStandaloneSandbox({ redirectUri, webhookUrl: `http://127.0.0.1:${webhookPort}/kick/webhook` });
    writeFileSync(join(dataDir, `${SETTINGS_FILE_NAME}.json`), JSON.stringify({ redirectUri, webhookPort }));
    browser = await launchChromium();
    // No credentials yet: Greenroom starts on its embedded sandbox. The Kick URLs point at "Kick" for later.
    app = await startApp({
      dataDir,
      env: {
        GREENROOM_KICK_API_URL: kick.appEnv.GREENROOM_KICK_API_URL!,
        GREENROOM_KICK_AUTH_URL: kick.appEnv.GREENROOM_KICK_AUTH_URL!,
        GREENROOM_KICK_SOCKET_URL: kick.appEnv.GREENROOM_KICK_SOCKET_URL!,
        GREENROOM_KICK_WEB_URL: kick.appEnv.GREENROOM_KICK_WEB_URL!,
        GREENROOM_WEBHOOK_PORT: '',
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await kick?.close();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes the Kick app credentials in the guide and switches to Kick without a restart', async () => {
    dock = await openPanel(await newContext(browser, DOCK), app);
    const guide = dock.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.waitFor(WAIT);
    await guide.getByRole('button', { name: /Enter credentials$/ }).click();
    await guide.getByLabel('Client ID').fill(kick.clientId);
    await guide.getByLabel(/Client secret/).fill(kick.appEnv.GREENROOM_CLIENT_SECRET!);
    await guide.getByRole('button', { name: 'Save credentials' }).click();
    const panel = connectPanel(app);
    try {
      await expect.poll(async () => (await value(panel.api.app.snapshot())).mode, WAIT).toBe('kick');
    } finally {
      panel.close();
    }
    // The same process: no second start.
    expect(app.child.exitCode).toBeNull();
    expect(app.stdout.lines.filter((line) => line.startsWith('Greenroom panel: '))).toHaveLength(1);
    await dock.getByRole('dialog', { name: 'Set up Greenroom' }).getByRole('button', { name: 'Close setup' }).click();
  });

  it('signs in from the dock with the link shown, opened in the browser', async () => {
    await dock
      .getByRole('region', { name: 'Sign in' })
      .getByRole('button', { name: /^Sign in/ })
      .click();
    const link = dock.getByRole('region', { name: 'Sign-in link' });
    await link.getByRole('button', { name: 'Copy link' }).waitFor(WAIT);
    expect(await link.locator('code').textContent()).toMatch(/\/oauth\/authorize\?/);
    await screenshot(dock, 'sign-in-dock');
    const opening = dock.context().waitForEvent('page', WAIT);
    await link.getByRole('button', { name: 'Open link' }).click();
    await approveIn(await opening);
    await dock.getByRole('region', { name: 'Sign in' }).waitFor({ state: 'detached', ...WAIT });
  });

  it('shows live chat from Kick in the dock', async () => {
    await expect.poll(async () => (await kick.admin.counts()).eventSubscriptions, WAIT).toBe(10);
    // The pointer off the chat log, where it left it after the sign-in: hovering the log pauses chat.
    await dock.mouse.move(1, 1);
    const id = await kick.admin.chat('hello from a viewer on Kick', 100100);
    await dock
      .getByRole('log', { name: 'Chat messages' })
      .locator(`article[data-message-id="${id}"]`)
      .getByText('hello from a viewer on Kick')
      .waitFor(WAIT);
  });
});

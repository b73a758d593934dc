/**
 * Journey: a crash right after the sign-in does not sign the streamer out of the embedded sandbox
 * ([sandbox notes](../../docs/sandbox.md#what-the-saved-world-keeps)). The built app runs in its own process
 * with the panel in Debian's Chromium: the streamer signs in on the sandbox's consent page, and the moment the
 * app has heard its event subscriptions answered, the app is killed with SIGKILL (no chance to save
 * anything more). Started again on the same data dir, it is still signed in, the sandbox still holds its
 * subscriptions, and a KICKs gift sent then reaches the KICKs board.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { HELD_SUBSCRIPTIONS_FILE } from '../../electron/webhooks/subscriptions/held-subscriptions-file';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { openSection } from '../helpers/panel-tabs';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { launchChromium, newContext, openPanel, signInFromPanel } from './panel';
import { embeddedSandbox } from './sandbox-admin';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 20_000 };

/** How many subscription ids the app holds, from the file it writes once Kick (the sandbox) answered. */
function heldIds(dataDir: string): number {
  try {
    const held = JSON.parse(readFileSync(join(dataDir, HELD_SUBSCRIPTIONS_FILE), 'utf8')) as {
      subscriptionIds?: unknown[];
    };
    return held.subscriptionIds?.length ?? 0;
  } catch {
    return 0; // not written yet, or being replaced
  }
}

describe('journey: a kill -9 right after the sign-in', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let page: Page;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-sandbox-crash-'));
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback`, setupGuideDone: true }),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is still signed in, still subscribed, and events arrive after the restart', async () => {
    app = await startApp({ dataDir });
    page = await openPanel(await newContext(browser), app);
    await signInFromPanel(page, app);
    // Killed the moment the app has heard its subscriptions answered (it keeps their ids in its data dir):
    // well inside the second the sandbox's routine save waits.
    await expect.poll(() => heldIds(dataDir), { timeout: 20_000, interval: 20 }).toBe(KICK_EVENT_TYPES.length);
    expect(await app.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    await page.context().close();

    app = await startApp({ dataDir });
    const after = await embeddedSandbox(app);
    expect((await after.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length);
    page = await openPanel(await newContext(browser), app);
    await openSection(page, 'Health');
    await page
      .getByRole('tabpanel', { name: /^Health/ })
      .getByText(/Signed in as sandbox_streamer/)
      .waitFor(WAIT);

    await openSection(page, 'KICKs');
    const [gift] = await after.trigger('kicks.gifted', { overrides: { 'gift.amount': 77_777 } });
    const sender = (gift!.sender as { username: string }).username;
    await page
      .getByRole('tabpanel', { name: /^KICKs/ })
      .getByRole('cell', { name: sender, exact: true })
      .waitFor(WAIT);
    const said = [...app.stdout.lines, ...app.stderr.lines].join('\n');
    expect(said).not.toMatch(/RefreshRejected|sign in again/i);
  });
});

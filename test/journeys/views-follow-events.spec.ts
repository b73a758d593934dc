/**
 * Journey: views follow the events ([design notes](../../docs/design-notes.md#views-follow-the-events)). A
 * fresh data dir, the built app on its embedded sandbox, the panel in Debian's Chromium. Rewards is opened
 * while signed out, the streamer signs in from the panel, and the sandbox runs a redemption wave that creates
 * its rewards as it starts: Rewards lists them, without a page reload. A reward another panel creates, a KICKs
 * gift and a new title show in Rewards, on the KICKs board and in Stream, again without a reload. The page
 * marks its document at the start and checks the mark is still there at each step, so a reload anywhere would
 * fail the journey.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { embeddedSandbox, type SandboxAdmin } from './sandbox-admin';
import { openTab } from './tabs-fixtures';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 20_000 };
const MARK = 'window.__sameDocument';

describe('journey: views follow the events on a fresh start', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let admin: SandboxAdmin;
  let panel: PanelClient;
  let page: Page;

  const sameDocument = async () => page.evaluate<boolean>(`${MARK} === true`);
  const section = (label: string) => page.getByRole('tabpanel', { name: new RegExp(`^${label}( \\d|$)`) });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-views-'));
    // Only what a streamer's machine would have: the redirect port free for the sign-in listener.
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback` }),
    );
    browser = await launchChromium();
    app = await startApp({ dataDir });
    admin = await embeddedSandbox(app);
    panel = connectPanel(app);
    page = await openPanel(await newContext(browser), app);
    // A first run opens the setup guide; the streamer closes it to look around.
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.waitFor(WAIT);
    await guide.getByRole('button', { name: 'Close setup' }).click();
    await guide.waitFor({ state: 'detached', ...WAIT });
    await page.evaluate(`${MARK} = true`);
  });

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the rewards of a redemption wave in Rewards, opened before sign-in, without a reload', async () => {
    await openTab(page, 'Rewards');
    const rewards = section('Rewards');
    // Signed out there is nothing to list yet, and the view says why.
    await rewards.getByText(/signed out/i).waitFor(WAIT);
    await signInFromPanel(page, app);
    // Kick delivers only to subscriptions that exist: the wave must not race the app's subscribing.
    await expect.poll(async () => (await admin.counts()).eventSubscriptions, WAIT).toBe(KICK_EVENT_TYPES.length);
    await admin.call('POST', '/scenarios/redemption-wave', {});
    const pending = async () =>
      (await value(panel.api.redemptions.list({ status: 'pending' }))).reduce((n, g) => n + g.redemptions.length, 0);
    await expect.poll(pending, { timeout: 60_000 }).toBe(18);
    const titles = (await value(panel.api.rewards.list())).map((r) => r.title);
    expect(titles.length).toBeGreaterThanOrEqual(3);
    const items = rewards.getByRole('listitem');
    await expect.poll(() => items.count(), WAIT).toBe(titles.length);
    const shown = await rewards.textContent();
    for (const title of titles) {
      expect(shown).toContain(title);
    }
    expect(shown).not.toMatch(/No rewards yet|signed out/i);
    expect(await sameDocument()).toBe(true);
  });

  it('lists a reward another panel created, without a reload', async () => {
    // The journey's own connection is a second panel, as an OBS dock beside the window would be.
    const created = await value(panel.api.rewards.create({ title: 'Posture check', cost: 250 }));
    await section('Rewards').getByText(created.title, { exact: true }).waitFor(WAIT);
    expect(await sameDocument()).toBe(true);
  });

  it('shows a KICKs gift on the KICKs board without a reload', async () => {
    await openTab(page, 'KICKs');
    const board = section('KICKs');
    const [gift] = await admin.trigger('kicks.gifted', { overrides: { 'gift.amount': 100_000 } });
    const sender = (gift!.sender as { username: string }).username;
    await board.getByRole('cell', { name: sender, exact: true }).waitFor(WAIT);
    expect(await sameDocument()).toBe(true);
  });

  it('shows a title changed on Kick in Stream without a reload', async () => {
    await openTab(page, 'Stream');
    const title = 'Speedrun night: views follow the events';
    await admin.trigger('livestream.metadata.updated', { overrides: { 'metadata.title': title } });
    const field = section('Stream').getByLabel('Title', { exact: true });
    await expect.poll(() => field.inputValue(), WAIT).toBe(title);
    expect(await sameDocument()).toBe(true);
  });

  it('says since when Ads shows what it shows once the streamer signs out elsewhere', async () => {
    await openTab(page, 'Ads');
    const ads = section('Ads');
    await ads.getByText('Enrolled', { exact: true }).waitFor(WAIT);
    // Signed out from another panel: what Ads shows is no longer current, and it says so with its time.
    await value(panel.api.auth.signOut());
    await ads.getByText(/signed out.*What is shown is as of \d\d:\d\d\./i).waitFor(WAIT);
    // Signed out is not a missing permission: the view says to sign in, names none, and Run is off.
    await ads.getByText('Sign in to manage ads.', { exact: true }).waitFor(WAIT);
    expect(await ads.getByRole('button', { name: 'Run ad break' }).isDisabled()).toBe(true);
    expect(await ads.textContent()).not.toMatch(/ads:write|sign in again/i);
    expect(await sameDocument()).toBe(true);
  });
});

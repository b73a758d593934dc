/**
 * Journey: someone trying Greenroom on its embedded sandbox restarts it and is still signed in, on the same
 * simulated channel ([sandbox notes](../../docs/sandbox.md#what-the-saved-world-keeps)). The built app runs in
 * its own process with the panel in Debian's Chromium: sign-in on the sandbox's consent page, a reward made,
 * then the app is stopped (SIGTERM) and started again on the same data dir. The panel shows the account
 * signed in and the reward in Rewards, with no second consent. Then "Reset the sandbox" in Health, after
 * its confirm, signs out and the reward is gone, at the sandbox too. A saved world cut short is moved aside
 * with one line at the next start, and the app starts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { openSection } from '../helpers/panel-tabs';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { embeddedSandbox, STREAMER_USER_ID } from './sandbox-admin';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 15_000 };
const REWARD = 'Hydrate check (journey)';

describe('journey: the sandbox remembers across a restart', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let page: Page;
  let panel: PanelClient;

  const start = async (): Promise<void> => {
    app = await startApp({ dataDir });
    panel = connectPanel(app);
    page = await openPanel(await newContext(browser), app);
  };

  const sandboxRewards = async (): Promise<string[]> => {
    const admin = await embeddedSandbox(app);
    const answer = await admin.call<{ rewards: { title: string }[] }>('GET', `/channels/${STREAMER_USER_ID}/rewards`);
    return answer.rewards.map((r) => r.title);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-sandbox-remembers-'));
    // A streamer who has been here before: the redirect port free for the sign-in listener, the guide done.
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback`, setupGuideDone: true }),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs in on the sandbox and makes a reward', async () => {
    await start();
    await signInFromPanel(page, app);
    await value(panel.api.rewards.create({ title: REWARD, cost: 300 }));
    await openSection(page, 'Rewards');
    await page
      .getByRole('tabpanel', { name: /^Rewards/ })
      .getByText(REWARD)
      .waitFor(WAIT);
  });

  it('after a restart the panel shows the same account signed in and the reward, with no consent', async () => {
    panel.close();
    await page.context().close();
    expect(await app.stop()).toMatchObject({ code: 0 });
    await start();
    expect(app.notices.filter((line) => line.includes('sandbox'))).toEqual([]);

    await openSection(page, 'Health');
    const health = page.getByRole('tabpanel', { name: /^Health/ });
    await health.getByText(/Signed in as sandbox_streamer/).waitFor(WAIT);
    await expect.poll(() => page.getByRole('region', { name: 'Sign in' }).count(), WAIT).toBe(0);
    await openSection(page, 'Rewards');
    await page
      .getByRole('tabpanel', { name: /^Rewards/ })
      .getByText(REWARD)
      .waitFor(WAIT);
    // No sign-in was started: the app printed no link to a consent page.
    expect(app.stdout.lines.some((line) => line.startsWith('Open this link to continue'))).toBe(false);
    expect(await sandboxRewards()).toContain(REWARD);
  });

  it('"Reset the sandbox" asks first, then signs out and the reward is gone', async () => {
    await openSection(page, 'Health');
    const health = page.getByRole('tabpanel', { name: /^Health/ });
    await health.getByRole('button', { name: 'Reset the sandbox…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Reset the sandbox?' });
    await confirm
      .getByText('This clears the simulated channel, its rewards and sign-in. Your Greenroom settings stay.')
      .waitFor(WAIT);
    // Cancel changes nothing.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await health.getByText(/Signed in as sandbox_streamer/).waitFor(WAIT);
    expect(await sandboxRewards()).toContain(REWARD);

    await health.getByRole('button', { name: 'Reset the sandbox…' }).click();
    await confirm.getByRole('button', { name: 'Reset the sandbox' }).click();
    await page
      .getByRole('region', { name: 'Results' })
      .getByText(/The sandbox was reset/)
      .waitFor(WAIT);
    await health.getByText('Not signed in.').waitFor(WAIT);
    await page.getByRole('region', { name: 'Sign in' }).waitFor(WAIT);
    expect(await sandboxRewards()).not.toContain(REWARD);
  });

  it('starts fresh, saying so in one line, on a saved world cut short', async () => {
    panel.close();
    await page.context().close();
    expect(await app.stop()).toMatchObject({ code: 0 });
    const file = join(dataDir, 'sandbox-world.json');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 300));
    await start();
    const said = app.notices.filter((line) => line.includes('sandbox world'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /was damaged \(not valid JSON\); it was moved to .*\.damaged-.* and the sandbox starts fresh/,
    );
    await page.getByRole('region', { name: 'Sign in' }).waitFor(WAIT);
  });
});

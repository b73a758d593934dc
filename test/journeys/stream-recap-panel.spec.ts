/**
 * Journey: a stream's recap in a 340 px OBS dock ([history](../../docs/history.md#in-the-panel)). The built app
 * runs on Node 24 (as Electron 45 runs it, with `node:sqlite`) against its embedded sandbox, signed in from the
 * panel. A stream that went live 40 minutes ago gets chat spread over those minutes, then follows, subs, gifts,
 * KICKs and redemptions, then goes offline. The Streams tab badges the recap, opens it with its four uPlot charts
 * drawn as wide as the dock and nothing scrolling sideways, lists the sandbox's followers, and a follower's card
 * tells their story, saying the follow is as far as Greenroom saw.
 *
 * Saves test-results/journeys/stream-recap-dock.png and viewer-story-card.png (docs/screenshots/ with
 * GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { type AppRun, killLeftovers, ROOT, startApp } from './app-process';
import { connectPanel, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { embeddedSandbox, type SandboxAdmin } from './sandbox-admin';
import { launchWithScrollbars, openTab, sidewaysScroll } from './tabs-fixtures';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 30_000 };
const DOCK = { width: 340, height: 1100 };
const MINUTES = 40;

/**
 * Saves what `target` shows (test-results/journeys/, and docs/screenshots/ with GREENROOM_UPDATE_SCREENSHOTS=1).
 * The tabs without the header: the lines backdated 40 minutes make the header say, truly, that Kick's events
 * run late, which is this journey's making and no part of the recap.
 */
async function shoot(target: Locator, name: string): Promise<void> {
  const dir = join(ROOT, 'test-results', 'journeys');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await target.screenshot({ path });
  if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
    copyFileSync(path, join(ROOT, 'docs', 'screenshots', `${name}.png`));
  }
}

describe('journey: the recap in a 340 px dock', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let admin: SandboxAdmin;
  let panel: PanelClient;
  let page: Page;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-recap-panel-'));
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback` }),
    );
    browser = await launchWithScrollbars();
    app = await startApp({ dataDir, node: '24' });
    admin = await embeddedSandbox(app);
    panel = connectPanel(app);
    // Hooks cannot use expect.poll; vi.waitFor retries the same check.
    await vi.waitFor(async () => expect((await value(panel.api.history.status())).state).toBe('ready'), WAIT);
    page = await openPanel(await newContext(browser, DOCK), app);
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.waitFor(WAIT);
    await guide.getByRole('button', { name: 'Close setup' }).click();
    await signInFromPanel(page, app);
    await vi.waitFor(async () => expect((await admin.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length), WAIT);
  }, 120_000);

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    if (dataDir) {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('badges, opens and draws the recap of a stream that just ended, with nothing scrolling sideways', async () => {
    const startedAtMs = Math.floor((Date.now() - MINUTES * 60_000) / 1000) * 1000;
    const startedAt = new Date(startedAtMs).toISOString();
    await admin.trigger('livestream.status.updated', { overrides: { is_live: true, started_at: startedAt } });
    let messages = 0;
    for (let minute = 0; minute < MINUTES; minute += 2) {
      const count = 4 + Math.round(6 * (1 + Math.sin(minute / 5)));
      messages += count;
      // One line at a time, each at its own second: no chatter writes twice in the same millisecond.
      for (let k = 0; k < count; k++) {
        const at = new Date(startedAtMs + minute * 60_000 + (k + 1) * 1_000).toISOString();
        await admin.trigger('chat.message.sent', { overrides: { created_at: at } });
      }
    }
    const followers = await admin.trigger('channel.followed', { count: 6 });
    await admin.trigger('channel.subscription.new', { count: 3 });
    await admin.trigger('channel.subscription.renewal', { count: 2 });
    await admin.trigger('channel.subscription.gifts', { count: 2 });
    await admin.trigger('kicks.gifted', { count: 4 });
    await admin.trigger('channel.reward.redemption.updated', { count: 3 });
    const recap = () => value(panel.api.history.recap({ streamId: startedAtMs }));
    // Most lines in before the stream ends (the exact count against the sandbox is stream-recap.spec.ts's).
    await expect.poll(async () => (await recap()).figures.messages, WAIT).toBeGreaterThan(messages / 2);
    // Offline names the stream by its start, as Kick does: the one that went live above.
    await admin.trigger('livestream.status.updated', { overrides: { is_live: false, started_at: startedAt } });

    const streams = page.getByRole('tab', { name: /^Streams\b/ });
    const more = page.getByRole('button', { name: /^More sections/ });
    // Under "More ▾" in the dock: the badge shows there as a dot, and its words name the recap.
    await expect
      .poll(async () => ((await streams.count()) > 0 ? streams.textContent() : more.getAttribute('aria-label')), WAIT)
      .toMatch(/1$|1 recap ready/);
    await openTab(page, 'Streams');
    await page.getByRole('button', { name: 'See the recap' }).click();
    const view = page.locator('#main-panel-streams');
    await view.locator('.u-wrap canvas').nth(3).waitFor(WAIT);
    const chat = view.locator('[data-chart="chat"] .summary');
    // The chart says what main's recap holds, spread over the minutes Kick dated the lines.
    const told = async () => {
      const series = (await recap()).series.chat;
      const busy = series.filter((n) => n > 0).length;
      return `${(await chat.textContent())?.split(' ')[0]} ${series.reduce((a, b) => a + b, 0)} ${busy >= MINUTES / 2}`;
    };
    await expect
      .poll(async () => {
        const [shown, held, spread] = (await told()).split(' ');
        return shown === held && spread === 'true';
      }, WAIT)
      .toBe(true);
    const listed = view.getByRole('region', { name: 'New followers' });
    for (const follower of followers) {
      const name = String((follower.follower as { username: string }).username);
      await listed.getByRole('button', { name, exact: true }).waitFor(WAIT);
    }
    // Page code as text: the tests compile without the DOM's types.
    const widths = await page.evaluate<number[]>(
      `[...document.querySelectorAll('#main-panel-streams .u-wrap canvas')].map((c) => c.clientWidth)`,
    );
    expect(widths).toHaveLength(4);
    for (const width of widths) {
      expect(width).toBeGreaterThan(250);
      expect(width).toBeLessThanOrEqual(DOCK.width);
    }
    expect(await sidewaysScroll(page)).toEqual([]);
    await shoot(page.locator('.tabs-col'), 'stream-recap-dock');

    const first = String((followers[0]!.follower as { username: string }).username);
    await listed.getByRole('button', { name: first, exact: true }).click();
    const card = page.getByRole('dialog', { name: first });
    const story = card.getByRole('region', { name: 'History' });
    // A follow on the day Greenroom started watching may be older: "since at least" that day.
    await story.getByText(/as far as Greenroom saw|when Greenroom started watching/).waitFor(WAIT);
    expect(await sidewaysScroll(page)).toEqual([]);
    await shoot(card, 'viewer-story-card');
  }, 180_000);
});

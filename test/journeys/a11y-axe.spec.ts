/**
 * Journey: the panel checked with axe-core in Chromium, in each theme ([Themes](../../docs/design-notes.md#themes)).
 * The built app, signed in through a standalone sandbox, with chat, a follow and a redemption in it. For each
 * theme, picked in Settings' switch as a streamer does: every section, the setup guide, a chatter's user card and
 * each overlay's settings. Prints per view the violations by impact; asserts none is serious or critical.
 *
 * Saves test-results/journeys/theme-light.png and theme-high-contrast.png (docs/screenshots/ with
 * GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_LABELS, type Theme } from '../../shared/themes';
import { axeCheck, blocking, reportLine, type AxeReport } from './a11y-fixtures';
import { newContext, openPanel } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { openTab, SECTIONS } from './tabs-fixtures';

const WAIT = { timeout: 15_000 };
const THEMES: Theme[] = ['dark', 'light', 'high-contrast'];
const VIEWER = 100105;

describe('journey: accessibility in each theme', () => {
  let world: OverlayWorld;
  let page: Page;

  beforeAll(async () => {
    world = await startOverlayWorld();
    await world.panel.api.settings.update({ setupGuideDone: true });
    await world.sandbox.admin.chat('hello from the accessibility check', VIEWER);
    await world.sandbox.admin.trigger('channel.followed');
    await world.sandbox.admin.trigger('channel.reward.redemption.updated');
    page = await openPanel(await newContext(world.browser, { width: 1280, height: 860 }), world.app);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  /** Checks the page as it is now, prints the line, and keeps the report. */
  const check = async (theme: Theme, view: string, reports: AxeReport[]): Promise<void> => {
    const report = await axeCheck(page, view);
    console.log(reportLine(theme, report));
    reports.push(report);
  };

  for (const theme of THEMES) {
    it(`has no serious or critical violation in the ${theme} theme`, async () => {
      await openTab(page, 'Settings');
      await page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: THEME_LABELS[theme] }).check();
      await expect.poll(() => page.evaluate('document.documentElement.dataset.theme'), WAIT).toBe(theme);
      const reports: AxeReport[] = [];

      for (const section of SECTIONS.filter((s) => s !== 'Chat')) {
        await openTab(page, section);
        await check(theme, section, reports);
      }

      // The setup guide, opened from Settings.
      await openTab(page, 'Settings');
      await page.getByRole('button', { name: 'Run the setup guide' }).click();
      const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
      await guide.waitFor(WAIT);
      await check(theme, 'Setup guide', reports);
      await guide.getByRole('button', { name: 'Close setup' }).click();
      await guide.waitFor({ state: 'detached', ...WAIT });

      // A chatter's user card, from their name in chat.
      const line = page.locator('article.msg', { hasText: 'hello from the accessibility check' }).first();
      await line.waitFor(WAIT);
      await line.locator('button.name').click();
      const card = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close user card' }) });
      await card.waitFor(WAIT);
      await check(theme, 'User card', reports);
      await card.getByRole('button', { name: 'Close user card' }).click();

      // Each overlay's settings.
      await openTab(page, 'Overlays');
      const overlays = page.locator('#main-panel-overlays ul.list button.name');
      for (let i = 0; i < (await overlays.count()); i++) {
        const pick = overlays.nth(i);
        await pick.click();
        await check(theme, `Overlay: ${(await pick.textContent())!.trim()}`, reports);
      }

      if (theme !== 'dark') {
        await openTab(page, 'Activity');
        await screenshot(page, `theme-${theme}`);
      }
      const found = reports.flatMap((r) => blocking(r).map((v) => ({ view: r.view, ...v })));
      expect(found).toEqual([]);
    }, 240_000);
  }
});

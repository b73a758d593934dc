/**
 * Journey: tabs that fit (docs/design-notes.md, "Tabs that fit"). The built app, signed in through a
 * standalone sandbox, with the panel in Chromium:
 *
 * 1. In a 340 px OBS dock the selected tab shows in the row and every other is reachable under "More ▾",
 *    with the keyboard too (Enter opens on the first item, arrows move, Enter picks and focus follows,
 *    Escape closes and gives focus back).
 * 2. No view scrolls sideways at 340 px: for every tab, the page and every scrolling box in it are measured.
 * 3. At 1280 px, Settings is reachable and the row never runs past its edge.
 *
 * Saves test-results/journeys/tabs-overflow-menu-dock.png (docs/screenshots/ with
 * GREENROOM_UPDATE_SCREENSHOTS=1), the menu open in the dock.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, openPanel, value } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { focused, launchWithScrollbars, openTab, SECTIONS, sidewaysScroll, tabRow } from './tabs-fixtures';

const WAIT = { timeout: 15_000 };
const DOCK = { width: 340, height: 720 };

describe('journey: tabs that fit', () => {
  let world: OverlayWorld;
  let browser: Browser;

  beforeAll(async () => {
    world = await startOverlayWorld();
    browser = await launchWithScrollbars();
  });

  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  const open = async (viewport: { width: number; height: number }): Promise<Page> =>
    openPanel(await newContext(browser, viewport), world.app);

  it('shows the selected tab in a 340 px dock and the others under "More ▾", by pointer and keyboard', async () => {
    const page = await open(DOCK);
    const row = await tabRow(page);
    expect(row.find((t) => t.selected)?.name).toBe('Chat');
    // Everything in the row is inside the dock, none of it cut off.
    for (const tab of row) {
      expect(tab.left, tab.name).toBeGreaterThanOrEqual(0);
      expect(tab.right, tab.name).toBeLessThanOrEqual(DOCK.width);
    }
    const more = page.getByRole('button', { name: /^More sections/ });
    const box = (await more.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(DOCK.width);

    await more.click();
    const menu = page.getByRole('menu', { name: 'More sections' });
    const items = (await menu.getByRole('menuitem').allTextContents()).map((t) => t.replace(/\s*\d+$/, '').trim());
    // Every section is either in the row or in the menu, once.
    expect([...row.map((t) => t.name), ...items].sort()).toEqual([...SECTIONS].sort());
    const menuBox = (await menu.boundingBox())!;
    expect(menuBox.x).toBeGreaterThanOrEqual(0);
    expect(menuBox.x + menuBox.width).toBeLessThanOrEqual(DOCK.width);
    await screenshot(page, 'tabs-overflow-menu-dock');

    // Escape closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached', ...WAIT });
    expect((await focused(page)).text).toMatch(/^More ▾/);
    // Enter opens on the first item; Up wraps to the last (Settings); Enter picks it.
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).role, WAIT).toBe('menuitem');
    await page.keyboard.press('ArrowUp');
    expect((await focused(page)).text).toBe('Settings');
    await page.keyboard.press('Enter');
    const settings = page.getByRole('tab', { name: 'Settings' });
    await expect.poll(() => settings.getAttribute('aria-selected'), WAIT).toBe('true');
    // Focus follows to the tab, and its ring shows: the browser treats a keyboard-moved focus as visible.
    expect(await focused(page)).toEqual({ role: 'tab', text: 'Settings', ring: true });
    const after = await tabRow(page);
    expect(after.find((t) => t.selected)?.name).toBe('Settings');
    expect(after.every((t) => t.right <= DOCK.width)).toBe(true);
    await page.locator('#main-panel-settings').waitFor(WAIT);
    // The arrows reach every tab, those under "More" too: Left from Settings selects Health.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await tabRow(page)).find((t) => t.selected)?.name, WAIT).toBe('Health');
    await page.context().close();
  });

  it('scrolls no view sideways at 340 px, each with something in it', async () => {
    // What makes a view wide: a redemption wave (the queue, the rewards), a sub train (the feed), a word
    // and a link longer than the dock in chat.
    const admin = world.sandbox.admin;
    await admin.call('POST', '/scenarios/redemption-wave', { immediate: true });
    await admin.call('POST', '/scenarios/sub-train', { immediate: true });
    const long = await admin.chat(`${'W'.repeat(120)} https://kick.com/${'a'.repeat(90)}`, 100104);
    await expect
      .poll(async () => (await value(world.panel.api.chat.history())).some((m) => m.messageId === long), WAIT)
      .toBe(true);
    const page = await open(DOCK);
    const found: string[] = [];
    for (const section of SECTIONS) {
      await openTab(page, section);
      for (const excess of await sidewaysScroll(page)) {
        found.push(`${section}: ${excess}`);
      }
    }
    expect(found).toEqual([]);
    await page.context().close();
  });

  it('reaches Settings at 1280 px, the row inside the window', async () => {
    const page = await open({ width: 1280, height: 860 });
    await openTab(page, 'Settings');
    const row = await tabRow(page);
    expect(row.find((t) => t.selected)?.name).toBe('Settings');
    const list = (await page.getByRole('tablist', { name: 'Sections' }).boundingBox())!;
    for (const tab of row) {
      expect(tab.right, tab.name).toBeLessThanOrEqual(list.x + list.width + 0.5);
    }
    expect(await sidewaysScroll(page)).toEqual([]);
    await page.context().close();
  });
});

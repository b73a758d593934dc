/**
 * Opens one of the panel's sections in Chromium as a streamer does: its tab when the row shows it, else
 * through "More ▾", where the tabs that do not fit the window sit (docs/design-notes.md, "Tabs that fit").
 * Which tabs fit depends on the window's width and on the fonts, so a test names the section, not where it is.
 */
import type { Page } from 'playwright-core';

const WAIT = { timeout: 15_000 };

/** Opens the section `label` (a badge's count may follow it in the tab's name) and waits until it is selected. */
export async function openSection(page: Page, label: string): Promise<void> {
  const name = new RegExp(`^${label}\\b`);
  const tab = page.getByRole('tablist', { name: 'Sections' }).getByRole('tab', { name });
  await page.getByRole('tablist', { name: 'Sections' }).waitFor(WAIT);
  if ((await tab.count()) === 0) {
    await page.getByRole('button', { name: /^More sections/ }).click();
    await page.getByRole('menu', { name: 'More sections' }).getByRole('menuitem', { name }).click();
  } else {
    await tab.click();
  }
  await tab.and(page.locator('[aria-selected="true"]')).waitFor(WAIT);
}

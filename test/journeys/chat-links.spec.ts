/**
 * Journey (issue 13, "a link opens only after its confirm"): a viewer's link in chat is shown as a link;
 * clicking it opens nothing until the streamer confirms the full URL, and Cancel opens nothing at all. In
 * the browser panel the link then opens in a new tab of that browser (renderer/src/lib/open-link.ts); the
 * desktop window asks main, which opens only http(s) links whose host is in chat (electron/ipc/handlers.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPanel } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';

const WAIT = { timeout: 15_000 };

describe('journey: links in chat', () => {
  let world: OverlayWorld;
  let page: Page;
  const opened: string[] = [];

  beforeAll(async () => {
    world = await startOverlayWorld();
    const context = await world.browser.newContext({ viewport: { width: 1100, height: 800 } });
    // What the panel asks the browser to open: headless Chromium does not surface a `noopener` tab as a
    // page, so the call itself is recorded (installed before the panel's own script runs).
    await context.exposeFunction('__recordOpen', (url: string) => opened.push(url));
    await context.addInitScript(`window.open = (url) => { window.__recordOpen(String(url)); return null; };`);
    page = await openPanel(context, world.app);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('opens a viewer’s link only after the confirm that shows the full URL', async () => {
    const id = await world.sandbox.admin.chat('clip of the play: https://example.org/clips/42?t=9 nice', 100101);
    const line = page.locator(`article[data-message-id="${id}"]`);
    const link = line.getByRole('link', { name: 'https://example.org/clips/42?t=9' });
    await link.waitFor(WAIT);

    await link.click();
    const confirm = page.getByRole('alertdialog', { name: 'Open this link?' });
    await confirm.getByText('https://example.org/clips/42?t=9').waitFor(WAIT);
    await screenshot(page, 'chat-link-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForTimeout(500);
    expect(opened).toEqual([]);

    await link.click();
    await confirm.getByRole('button', { name: 'Open link' }).click();
    await expect.poll(() => opened, WAIT).toEqual(['https://example.org/clips/42?t=9']);
    expect(await confirm.count()).toBe(0);
  });
});

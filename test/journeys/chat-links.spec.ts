/**
 * Journey: a viewer's link in chat is shown as a link;
 * clicking it opens nothing until the streamer confirms the full URL, and Cancel opens nothing at all. In
 * the browser panel the link then opens in a new tab of that browser (renderer/src/lib/open-link.ts); the
 * desktop window asks main, which opens only http(s) links whose host is in chat (electron/ipc/handlers.ts).
 * Probe findings: a middle click opened the link in a new tab with no confirm, and
 * `https://kick.com@evil.example/` was confirmed as written, without saying it goes to evil.example
 * (../../docs/chat-tools.md#links-in-chat).
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
  /** Tabs the browser opened by itself (a link's default action), which nothing but the confirm may cause. */
  const tabs: string[] = [];

  beforeAll(async () => {
    world = await startOverlayWorld();
    const context = await world.browser.newContext({ viewport: { width: 1100, height: 800 } });
    // What the panel asks the browser to open: headless Chromium does not surface a `noopener` tab as a
    // page, so the call itself is recorded (installed before the panel's own script runs).
    await context.exposeFunction('__recordOpen', (url: string) => opened.push(url));
    await context.addInitScript(`window.open = (url) => { window.__recordOpen(String(url)); return null; };`);
    // Each link gesture, seen by the document after the link's own handlers: was the browser's action stopped?
    await context.addInitScript(`
      window.__gestures = [];
      for (const type of ['click', 'auxclick', 'keydown']) {
        document.addEventListener(type, (e) => {
          if (e.target instanceof Element && e.target.closest('.message-content .link')) {
            window.__gestures.push({ type, prevented: e.defaultPrevented });
          }
        });
      }`);
    page = await openPanel(context, world.app);
    context.on('page', (tab) => tabs.push(tab.url()));
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

  it('asks first however the link is opened: middle click, Ctrl-click, Shift-click, Enter', async () => {
    const id = await world.sandbox.admin.chat('vod: https://example.org/vod/7 later', 100102);
    const link = page
      .locator(`article[data-message-id="${id}"]`)
      .getByRole('link', { name: 'https://example.org/vod/7' });
    await link.waitFor(WAIT);
    const confirm = page.getByRole('alertdialog', { name: 'Open this link?' });
    const gestures: [string, () => Promise<void>][] = [
      ['middle click', () => link.click({ button: 'middle' })],
      ['Ctrl-click', () => link.click({ modifiers: ['Control'] })],
      ['Shift-click', () => link.click({ modifiers: ['Shift'] })],
      [
        'Enter',
        async () => {
          await link.focus();
          await page.keyboard.press('Enter');
        },
      ],
    ];
    for (const [name, gesture] of gestures) {
      await page.evaluate('window.__gestures.length = 0');
      await gesture();
      await confirm.getByText('https://example.org/vod/7').waitFor({ timeout: 5000 });
      const seen = await page.evaluate<{ prevented: boolean }[]>('window.__gestures');
      expect(seen.length, name).toBeGreaterThan(0);
      expect(
        seen.every((g) => g.prevented),
        name,
      ).toBe(true);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached', ...WAIT });
    }
    expect(opened).toEqual(['https://example.org/clips/42?t=9']);
    expect(tabs).toEqual([]);
  });

  it('names the host the browser would really open, not the name before an @', async () => {
    const id = await world.sandbox.admin.chat('free skins https://kick.com@evil.example/login', 100103);
    const link = page.locator(`article[data-message-id="${id}"]`).getByRole('link');
    await link.waitFor(WAIT);
    await link.click();
    const confirm = page.getByRole('alertdialog', { name: 'Open this link?' });
    await expect.poll(() => confirm.locator('[data-host]').textContent(), WAIT).toBe('evil.example');
    await confirm.getByText('The link starts with “kick.com@”').waitFor(WAIT);
    await screenshot(page, 'chat-link-confirm-userinfo');
    await confirm.getByRole('button', { name: 'Open link' }).click();
    await expect.poll(() => opened.at(-1), WAIT).toBe('https://kick.com@evil.example/login');
    expect(tabs).toEqual([]);
  });
});

/**
 * Custom CSS for the alert box (docs/overlays.md#custom-css), in Chromium: it styles the alert and nothing
 * else of the page it is in (the overlay page, or the panel around the preview), Save refuses CSS that
 * would load from another host, and should such CSS reach the page anyway, the page's policy fetches nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fx, invoke, openAlertBox, updateOverlays, useAlertWorld, WAIT } from './alert-designs-fixtures';

useAlertWorld();

const CSS = [
  '.em-name { color: rgb(255, 0, 255) }',
  'body, html, :root { background: rgb(255, 0, 0) }',
  'button { display: none }',
  '@media (min-width: 1px) { .text { letter-spacing: 3px } }',
  '@font-face { font-family: mine; src: local(Arial) }',
].join('\n');

/** The computed value of a CSS property on the first element matching `selector`. */
const computed = (page: Page, selector: string, property: string): Promise<string> =>
  page.evaluate(
    ([sel, prop]) => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      const view = globalThis as unknown as { getComputedStyle(el: unknown): Record<string, string> };
      return view.getComputedStyle(doc.querySelector(sel!))[prop!]!;
    },
    [selector, property],
  );

describe('custom CSS on the alert box', () => {
  it('is refused at Save when it would load from another host, with the reason at its field', async () => {
    const refused = await updateOverlays((settings) => {
      settings.style.alerts.customCss = '.gr-alert { background: url(https://tracker.example/p.gif) }';
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.message).toMatch(/customCss/);
      expect(refused.error.message).toMatch(/may not load "https:\/\/tracker.example\/p.gif"/);
    }
  });

  it('styles the alert in OBS and nothing else of the page', async () => {
    expect((await updateOverlays((settings) => void (settings.style.alerts.customCss = CSS))).ok).toBe(true);
    const { page } = await openAlertBox();
    expect((await invoke('overlays:test-alert', { kind: 'follow' })).ok).toBe(true);
    await page.locator('[data-alert-id] .em-name').waitFor(WAIT);
    expect(await computed(page, '.em-name', 'color')).toBe('rgb(255, 0, 255)');
    expect(await computed(page, '.text', 'letterSpacing')).toBe('3px');
    // The rules for the page itself were kept inside the box, where no body or html is.
    expect(await computed(page, 'body', 'backgroundColor')).toBe('rgba(0, 0, 0, 0)');
    expect(await computed(page, 'html', 'backgroundColor')).toBe('rgba(0, 0, 0, 0)');
    expect(await page.evaluate('window.__violations')).toEqual([]);
    await page.context().close();
  });

  it('styles the preview in the panel, not the panel around it', async () => {
    const { page } = fx.e2e;
    await page.reload();
    const tab = page.getByRole('tab', { name: 'Overlays' });
    if ((await tab.count()) > 0 && (await tab.isVisible())) {
      await tab.click();
    } else {
      await page.getByRole('button', { name: /^More/ }).click();
      await page.getByRole('menuitem', { name: 'Overlays' }).click();
    }
    const section = page.getByRole('region', { name: 'Overlays' });
    await section.getByRole('img', { name: 'Preview' }).locator('.em-name').waitFor(WAIT);
    expect(await computed(page, '.stage .em-name', 'color')).toBe('rgb(255, 0, 255)');
    // The panel's own buttons are still there, and its page is not red.
    expect(await section.getByRole('button', { name: 'Play here' }).isVisible()).toBe(true);
    expect(await computed(page, 'body', 'backgroundColor')).not.toBe('rgb(255, 0, 0)');
    // Typing CSS that would load from elsewhere says why at once, beside the field.
    await section.getByLabel(/^Custom CSS/).fill('.gr-alert { background: url(http://127.0.0.1:9/x.png) }');
    await section.getByText('Custom CSS may not load "http://127.0.0.1:9/x.png"').waitFor(WAIT);
  });

  it('fetches nothing from another host even if such CSS reached the overlay page', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const { page } = await openAlertBox();
      await page.evaluate((p) => {
        const g = globalThis as unknown as {
          CSSStyleSheet: new () => { replaceSync(css: string): void };
          document: {
            adoptedStyleSheets: unknown[];
            body: { append(el: unknown): void };
            createElement(t: string): { className: string };
          };
        };
        const sheet = new g.CSSStyleSheet();
        sheet.replaceSync(
          `.probe { background: url(http://127.0.0.1:${p}/img.png); font-family: far }` +
            `@font-face { font-family: far; src: url(http://127.0.0.1:${p}/font.woff2) }`,
        );
        g.document.adoptedStyleSheets = [...g.document.adoptedStyleSheets, sheet];
        const probe = g.document.createElement('div');
        probe.className = 'probe';
        (probe as unknown as { textContent: string }).textContent = 'probe';
        g.document.body.append(probe);
      }, port);
      await expect.poll(() => page.evaluate('window.__violations.length'), WAIT).toBeGreaterThanOrEqual(2);
      const violations = await page.evaluate<string[]>('window.__violations');
      expect(violations.some((v) => v.startsWith('img-src'))).toBe(true);
      expect(violations.some((v) => v.startsWith('font-src'))).toBe(true);
      expect(hits).toBe(0);
      await page.context().close();
    } finally {
      server.close();
    }
  });
});

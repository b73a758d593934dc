/**
 * Disabled buttons in Chromium with the panel's own stylesheet (docs/design-notes.md#disabled-buttons): a
 * disabled green button (Send, Accept) must not keep its green, must look like every other disabled button,
 * and must differ from each enabled kind in fill, border and text.
 */
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from './harness';

const CSS = readFileSync(new URL('../../renderer/src/app.css', import.meta.url), 'utf8');
const KINDS = ['', 'primary', 'danger'] as const;

interface Look {
  background: string;
  color: string;
  borderStyle: string;
  opacity: string;
}

/** Channel values of `rgb(r, g, b)` or `rgba(…)`. */
const channels = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).map(Number).slice(0, 3);
/** WCAG relative luminance of an sRGB colour. */
function luminance(css: string): number {
  const [r, g, b] = channels(css).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('disabled buttons', () => {
  let browser: Browser;
  let page: Page;
  const look = (id: string): Promise<Look> =>
    page.evaluate((sel) => {
      const doc = (globalThis as unknown as { document: { getElementById(s: string): unknown } }).document;
      const view = globalThis as unknown as { getComputedStyle(el: unknown): Record<string, string> };
      const style = view.getComputedStyle(doc.getElementById(sel));
      return {
        background: style.backgroundColor!,
        color: style.color!,
        borderStyle: style.borderTopStyle!,
        opacity: style.opacity!,
      };
    }, id);

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    const buttons = KINDS.map(
      (kind) =>
        `<button id="on-${kind}" class="${kind}">Send</button><button id="off-${kind}" class="${kind}" disabled>Send</button>`,
    ).join('');
    await page.setContent(`<!doctype html><style>${CSS}</style><body>${buttons}</body>`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('drops the green of a disabled primary button', async () => {
    const on = await look('on-primary');
    const off = await look('off-primary');
    expect(off.background).not.toBe(on.background);
    expect(off.color).not.toBe(on.color);
    expect(off.borderStyle).not.toBe(on.borderStyle);
    expect(off.opacity).toBe('1');
    // Far from the accent: not a faded green, but a dark surface.
    expect(luminance(off.background)).toBeLessThan(luminance(on.background) / 10);
  });

  it('gives every kind the same disabled look, unlike any enabled one', async () => {
    const offs = await Promise.all(KINDS.map((kind) => look(`off-${kind}`)));
    for (const off of offs) {
      expect(off).toEqual(offs[0]);
    }
    for (const kind of KINDS) {
      const on = await look(`on-${kind}`);
      expect(on.background === offs[0]!.background && on.color === offs[0]!.color).toBe(false);
      expect(on.borderStyle).not.toBe(offs[0]!.borderStyle);
    }
  });

  it('keeps the disabled label readable, dimmer than enabled text', async () => {
    const off = await look('off-');
    const on = await look('on-');
    expect(contrast(off.color, off.background)).toBeGreaterThanOrEqual(3);
    expect(contrast(off.color, off.background)).toBeLessThan(contrast(on.color, on.background));
  });
});

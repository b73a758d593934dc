/**
 * The Overlays tab's alert designs, in the panel in Chromium (docs/overlays.md#a-live-preview): the live
 * preview follows every edit before Save, previews the look for bigger amounts, plays the alert, and Test
 * sends it to an open alert box; a streamer's own image goes through the real upload (panel → socket →
 * main → data folder), and what is not an image or is too large is refused beside the picker, in plain words.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir';
import { animationNames, fx, imageWidth, openAlertBox, panelShot, useAlertWorld, WAIT } from './alert-designs-fixtures';

useAlertWorld();

const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Opens the Overlays tab, from the row or from "More" when the row has no room for it. */
async function openOverlays(page: Page): Promise<Locator> {
  const tab = page.getByRole('tab', { name: 'Overlays' });
  if ((await tab.count()) > 0 && (await tab.isVisible())) {
    await tab.click();
  } else {
    await page.getByRole('button', { name: /^More/ }).click();
    await page.getByRole('menuitem', { name: 'Overlays' }).click();
  }
  const section = page.getByRole('region', { name: 'Overlays' });
  await section.waitFor(WAIT);
  return section;
}

const mediaFiles = (): string[] => {
  try {
    return readdirSync(join(fx.e2e.launched.dataDir, 'overlay-media'));
  } catch {
    return [];
  }
};

describe('alert designs in the Overlays tab', () => {
  it('previews each alert live as it is edited, at a bigger amount too, and Test plays it in OBS', async () => {
    const { page } = fx.e2e;
    const section = await openOverlays(page);
    await section.getByLabel('Alert', { exact: true }).selectOption('gifted-subs');
    const preview = section.getByRole('img', { name: 'Preview' });
    const alert = preview.locator('[data-alert-id]');
    await expect.poll(() => alert.getAttribute('data-kind'), WAIT).toBe('gifted-subs');
    await expect.poll(() => alert.locator('.text').textContent(), WAIT).toMatch(/nightowl gifted 5 subs!/);
    expect(await imageWidth(alert.locator('img'))).toBeGreaterThan(0);
    // The panel plays no sound: a dock may be captured on stream.
    expect(await alert.locator('audio').count()).toBe(0);

    // Live: an edit shows at once, before Save.
    const template = section.getByRole('group', { name: 'Gifted subs alert' });
    await template.getByLabel('Text').first().fill('{user} dropped {count:a gift|# gifts}!');
    await expect.poll(() => alert.locator('.text').textContent(), WAIT).toMatch(/nightowl dropped 5 gifts!/);
    await template.getByLabel('Design').first().selectOption('banner');
    await expect.poll(() => alert.getAttribute('data-preset'), WAIT).toBe('banner');
    await template.getByLabel('Design').first().selectOption('card');
    await template.getByLabel('Text').first().fill('{user} gifted {count:a sub|# subs}!');

    // The look for 10 and more, as a sub train would show it.
    await section.getByLabel('Preview at').selectOption('10');
    await expect.poll(() => alert.getAttribute('data-variation'), WAIT).toBe('10');
    await expect.poll(() => alert.locator('.text').textContent(), WAIT).toMatch(/gifted 10 subs! Sub train!/);
    await page.waitForTimeout(700);
    // Tall enough for the whole designer in one picture.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await panelShot(section.locator('.designer'), 'overlays-alert-preview');
    await page.setViewportSize({ width: 1280, height: 860 });

    // Play: in, hold, out, in the preview; Test in OBS: the alert box open in OBS plays it.
    const obs = await openAlertBox();
    await section.getByLabel('Preview at').selectOption('');
    await section.getByRole('button', { name: 'Play here' }).click();
    await expect.poll(() => animationNames(alert), WAIT).toContain('overlay-bounce-in');
    await section.getByRole('button', { name: 'Test in OBS' }).click();
    const played = obs.page.locator('[data-alert-id^="test-"][data-kind="gifted-subs"]');
    await played.waitFor(WAIT);
    expect(await imageWidth(played.locator('img'))).toBeGreaterThan(0);
    expect(await played.locator('audio').getAttribute('src')).toMatch(/pop/);
    await obs.page.context().close();
  });

  it('refuses a program renamed .png, an SVG with a script and a 50 MB file beside the picker; takes a PNG', async () => {
    const { page } = fx.e2e;
    const section = await openOverlays(page);
    await section.getByLabel('Alert', { exact: true }).selectOption('follow');
    const input = section.getByLabel('Follow image: add your own file');
    const picker = input.locator('xpath=ancestor::div[contains(@class, "picker")]');
    const before = mediaFiles();

    // A Windows program's first bytes ("MZ"), named like a picture.
    await input.setInputFiles({
      name: 'setup.png',
      mimeType: 'image/png',
      buffer: Buffer.from('MZ\x90\x00\x03'.repeat(40)),
    });
    await picker.getByRole('alert').getByText('"setup.png" is not a PNG, GIF, WebP, JPEG or SVG file').waitFor(WAIT);

    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="9" height="9"/></svg>';
    await input.setInputFiles({ name: 'badge.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await picker
      .getByRole('alert')
      .getByText('"badge.svg" is an SVG Greenroom will not show: it has a script')
      .waitFor(WAIT);

    // Playwright hands a file this large over by path.
    const huge = join(tempDir('greenroom-e2e-huge-'), 'huge.gif');
    writeFileSync(huge, Buffer.alloc(50 * 1024 * 1024, 1));
    await input.setInputFiles(huge);
    await picker.getByRole('alert').getByText('"huge.gif" is 50 MiB; the limit is 3 MiB.').waitFor(WAIT);
    expect(mediaFiles()).toEqual(before);

    await input.setInputFiles({ name: 'My Logo.png', mimeType: 'image/png', buffer: PNG_1X1 });
    await expect.poll(() => picker.getByRole('alert').count(), WAIT).toBe(0);
    const select = section.getByLabel('Follow image', { exact: true });
    await expect.poll(() => select.inputValue(), WAIT).toMatch(/^[0-9a-f]{16}\.png$/);
    const stored = await select.inputValue();
    expect(mediaFiles()).toEqual([...before, stored].sort());
    // The preview shows it at once, from the bytes the panel already has.
    const image = section.getByRole('img', { name: 'Preview' }).locator('[data-alert-id] img');
    await expect.poll(() => image.getAttribute('src'), WAIT).toMatch(/^data:image\/png;base64,/);
  });
});

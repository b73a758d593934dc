/**
 * How a test in Chromium checks an image the panel draws as a background (emotes, renderer/src/lib/emote-images.ts):
 * the URL an element is drawn from, and whether the image at a URL loads. Shared by the e2e tests and the
 * journeys; the functions passed to the page are typed for Node, as this project's tests are, not the DOM.
 */
import type { Locator, Page } from 'playwright-core';

type PageWindow = {
  getComputedStyle(el: unknown): { backgroundImage: string };
  Image: new () => { onload: () => void; onerror: () => void; src: string; naturalWidth: number };
};

/** The element's computed `background-image`, as the page reports it (`url("…")`, or `none`). */
export function backgroundImage(element: Locator): Promise<string> {
  return element.evaluate((el) => (globalThis as unknown as PageWindow).getComputedStyle(el).backgroundImage);
}

/** The natural width of the image at `url` once the page has loaded it; 0 when it fails to load. */
export function loadedImageWidth(page: Page, url: string): Promise<number> {
  return page.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const probe = new (globalThis as unknown as PageWindow).Image();
        probe.onload = () => resolve(probe.naturalWidth);
        probe.onerror = () => resolve(0);
        probe.src = src;
      }),
    url,
  );
}

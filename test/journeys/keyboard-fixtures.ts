/**
 * Driving the panel by the keyboard alone (docs/design-notes.md#keyboard-shortcuts): Tab until a control has
 * the focus, checking at every stop that the focus shows, as a ring or an outline the streamer can see.
 */
import type { Page } from 'playwright-core';

/** What has the focus, and whether it shows: `:focus-visible` and a drawn outline or shadow. */
export interface FocusStop {
  tag: string;
  name: string;
  visible: boolean;
}

/** The focused element, read in the page. (Page code as text: the tests compile without the DOM's types.) */
export async function focusStop(page: Page): Promise<FocusStop> {
  return page.evaluate<FocusStop>(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { tag: 'body', name: '', visible: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none';
    const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().replace(/\\s+/g, ' ');
    return { tag: el.tagName.toLowerCase(), name, visible: el.matches(':focus-visible') && (outline || shadow) };
  })()`);
}

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element's name matches `name`; every stop on the way is
 * kept in `stops`. Throws, naming the stops, when it is not reached in `max` presses.
 */
export async function tabTo(
  page: Page,
  name: RegExp,
  stops: FocusStop[],
  options: { back?: boolean; max?: number } = {},
): Promise<void> {
  for (let i = 0; i < (options.max ?? 80); i++) {
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
    const stop = await focusStop(page);
    stops.push(stop);
    if (name.test(stop.name)) {
      return;
    }
  }
  throw new Error(
    `Tab never reached ${name}; last stops: ${stops
      .slice(-8)
      .map((s) => s.name)
      .join(' | ')}`,
  );
}

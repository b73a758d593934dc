/**
 * The panel's tab row as a streamer sees it in Chromium: which tabs the row shows and where, opening any
 * section (from the row or from "More ▾"), and what in the page scrolls sideways.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/harness';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 15_000 };

/** Every section of the full panel in a narrow dock, in tab order. */
export const SECTIONS = [
  'Chat',
  'Activity',
  'Mod log',
  'Redemptions',
  'Rewards',
  'Ads',
  'Stream',
  'Streams',
  'OBS',
  'Overlays',
  'Automation',
  'KICKs',
  'Health',
  'Settings',
] as const;

/**
 * Debian's Chromium with its scrollbars taking room, as in an OBS dock or a browser window. Playwright hides
 * them when headless, and a view that fits only without a 15 px scrollbar beside it then looks fine.
 */
export async function launchWithScrollbars(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: ['--hide-scrollbars'],
  });
}

/** One tab in the row: its name (without a badge's count), whether selected, and its edges in the page. */
export interface RowTab {
  name: string;
  selected: boolean;
  left: number;
  right: number;
}

/** The tabs the "Sections" row shows, in order. (Page code as text: the tests compile without the DOM's types.) */
export async function tabRow(page: Page): Promise<RowTab[]> {
  return page.evaluate<RowTab[]>(`[...document.querySelectorAll('[role="tablist"][aria-label="Sections"] [role="tab"]')]
    .map((tab) => {
      const box = tab.getBoundingClientRect();
      return {
        name: (tab.textContent ?? '').replace(/\\s*\\d+$/, '').trim(),
        selected: tab.getAttribute('aria-selected') === 'true',
        left: box.left,
        right: box.right,
      };
    })`);
}

/** What has the keyboard focus: its role, its text and whether the browser shows its focus ring. */
export async function focused(page: Page): Promise<{ role: string | null; text: string; ring: boolean }> {
  return page.evaluate(`({
    role: document.activeElement?.getAttribute('role') ?? null,
    text: (document.activeElement?.textContent ?? '').trim(),
    ring: document.activeElement?.matches(':focus-visible') ?? false,
  })`);
}

/**
 * Opens a section as a streamer would (test/helpers/panel-tabs.ts) and resolves once it has finished loading
 * (no "Loading…" left in it).
 */
export async function openTab(page: Page, label: string): Promise<void> {
  await openSection(page, label);
  // A badge's count ("Health 2 waiting") follows the label in the panel's name.
  const name = new RegExp(`^${label}( \\d|$)`);
  const panel = page.getByRole('tabpanel', { name });
  await panel.waitFor(WAIT);
  await panel
    .getByText('Loading…')
    .first()
    .waitFor({ state: 'detached', ...WAIT });
  // Two frames, so what the last answer changed is laid out before anything is measured.
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
}

/**
 * What scrolls sideways: the page itself, and every box that would scroll (overflow-x auto or scroll) with
 * content wider than it, each as "<element>: N px".
 */
export async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const name = (el) => {
      const classes = [...el.classList].filter((c) => !c.startsWith('svelte-')).join('.');
      const role = el.getAttribute('role');
      const text = (el.textContent ?? '').trim().slice(0, 24);
      return el.tagName.toLowerCase() + (classes ? '.' + classes : '') + (role ? '[role=' + role + ']' : '') +
        (text ? ' "' + text + '"' : '');
    };
    const found = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      found.push('the page: ' + (root.scrollWidth - root.clientWidth) + ' px');
    }
    for (const el of document.querySelectorAll('body *')) {
      const overflowX = getComputedStyle(el).overflowX;
      if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth) {
        // Which of its contents run past its inner right edge, the farthest first.
        const edge = el.getBoundingClientRect().left + el.clientLeft + el.clientWidth;
        const past = [...el.querySelectorAll('*')]
          .map((inner) => ({ inner, by: Math.round(inner.getBoundingClientRect().right - edge) }))
          .filter(({ by }) => by > 0)
          .sort((a, b) => b.by - a.by)
          .slice(0, 6)
          .map(({ inner, by }) => name(inner) + ' by ' + by + ' px');
        found.push(name(el) + ': ' + (el.scrollWidth - el.clientWidth) + ' px (' + past.join(', ') + ')');
      }
    }
    return found;
  })()`);
}

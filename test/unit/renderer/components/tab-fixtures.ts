/**
 * A layout for the tab bar where happy-dom has none: each element is as wide as its text at 8 px a
 * character plus 20 px of padding, and the tab row (`.bar`) is `width` px wide, so the tab bar's own
 * measuring decides what fits, as it does in Chromium.
 */
import { vi } from 'vitest';

const clientWidth = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');

/** Lays the tab bar out in a row `width` px wide, until {@link restoreLayout}. */
export function stubTabLayout(width: number): void {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    return DOMRect.fromRect({ width: (this.textContent ?? '').trim().length * 8 + 20, height: 30 });
  });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('bar') ? width : ((clientWidth?.get?.call(this) as number | undefined) ?? 0);
    },
  });
}

/** happy-dom's own (empty) layout again. */
export function restoreLayout(): void {
  vi.restoreAllMocks();
  if (clientWidth) {
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', clientWidth);
  }
}

/** The panel's twelve tabs in a narrow dock, Health with two problems. */
export const PANEL_TABS = [
  { id: 'chat', label: 'Chat' },
  { id: 'activity', label: 'Activity' },
  { id: 'modlog', label: 'Mod log' },
  { id: 'redemptions', label: 'Redemptions' },
  { id: 'rewards', label: 'Rewards' },
  { id: 'ads', label: 'Ads' },
  { id: 'stream', label: 'Stream' },
  { id: 'overlays', label: 'Overlays' },
  { id: 'automation', label: 'Automation' },
  { id: 'kicks', label: 'KICKs' },
  { id: 'health', label: 'Health', badge: 2, badgeText: '2 connection problems' },
  { id: 'settings', label: 'Settings' },
] as const;

/**
 * Which colours the panel draws ([design notes](../../../docs/design-notes.md#themes)). `system` follows the
 * computer: its high-contrast or "more contrast" setting first, then light or dark; with no preference it is
 * dark, the theme that sits beside OBS. `app.css` holds each theme's palette under `data-theme` on the root.
 */
import type { Theme, ThemeChoice } from '../../../shared/themes';

/** What the computer asks for, as the browser's media queries report it. */
export interface SystemLook {
  /** `prefers-color-scheme: light` */
  light: boolean;
  /** `prefers-contrast: more`, or `forced-colors: active` (Windows' contrast themes). */
  moreContrast: boolean;
}

/** The theme to draw for the streamer's choice; an older main sends none, and had only the dark one. */
export function resolveTheme(choice: ThemeChoice | undefined, system: SystemLook): Theme {
  if (choice === undefined) {
    return 'dark';
  }
  if (choice !== 'system') {
    return choice;
  }
  if (system.moreContrast) {
    return 'high-contrast';
  }
  return system.light ? 'light' : 'dark';
}

/** Draws `theme`: its palette, and the `color-scheme` the browser draws its own controls in (app.css). */
export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.dataset.theme = theme;
}

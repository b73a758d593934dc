/**
 * The panel's colour themes ([design notes](../docs/design-notes.md#themes)): `system` follows the
 * computer's light/dark and contrast settings; the others are the streamer's own pick.
 */
export const THEME_CHOICES = ['system', 'dark', 'light', 'high-contrast'] as const;

export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** A theme the panel can draw: what `system` resolves to, or a streamer's pick. */
export type Theme = Exclude<ThemeChoice, 'system'>;

/** The computer's setting by default; with no preference from it the panel is dark, as beside OBS. */
export const DEFAULT_THEME: ThemeChoice = 'system';

/** Each choice as the Settings switch names it. */
export const THEME_LABELS: Record<ThemeChoice, string> = {
  system: 'System',
  dark: 'Dark',
  light: 'Light',
  'high-contrast': 'High contrast',
};

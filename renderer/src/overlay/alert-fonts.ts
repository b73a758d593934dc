/**
 * The alert fonts (../../../docs/overlays.md#fonts): Fontsource packages, bundled into the page's own files
 * when they are installed, so OBS draws the same letters on every machine and the page fetches no font
 * from the internet (its policy allows fonts from itself only). The glob matches what is installed; a
 * package that is not there is left out at build time, and its family falls back to the next in the list.
 */
import.meta.glob(
  [
    '../../../node_modules/@fontsource/lilita-one/index.css',
    '../../../node_modules/@fontsource/russo-one/index.css',
    '../../../node_modules/@fontsource/press-start-2p/index.css',
    '../../../node_modules/@fontsource-variable/inter/index.css',
  ],
  { eager: true, exhaustive: true },
);

/** Font choices offered in the Overlays tab: each a full family list ending in a font every system has. */
export const ALERT_FONTS: readonly { label: string; family: string }[] = [
  { label: 'Lilita One (bold, rounded)', family: 'Lilita One, Arial Black, system-ui, sans-serif' },
  { label: 'Russo One (squared, sporty)', family: 'Russo One, Arial Black, system-ui, sans-serif' },
  { label: 'Press Start 2P (pixel)', family: 'Press Start 2P, Courier New, monospace' },
  { label: 'Inter (clean)', family: 'Inter Variable, Inter, Segoe UI, system-ui, sans-serif' },
  { label: 'The system’s own', family: 'system-ui, sans-serif' },
];

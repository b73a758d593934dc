/**
 * Username colours come from the viewer's `identity` and are chosen for Kick's own dark page; some are too
 * dark to read on ours. Lift those towards white instead of replacing them, so a name keeps its hue.
 */
import { HEX_COLOUR } from '../../../shared/limits';

function channels(hex: string): [number, number, number] {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number): number => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** A readable colour on the panel background, or null to use the default name colour. */
export function readableNameColour(colour: string | null): string | null {
  if (!colour || !HEX_COLOUR.test(colour)) {
    return null;
  }
  let rgb = channels(colour);
  for (let i = 0; i < 6 && luminance(rgb) < 0.18; i++) {
    rgb = rgb.map((c) => Math.round(c + (255 - c) * 0.25)) as [number, number, number];
  }
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

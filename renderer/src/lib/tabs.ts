/** The panel's sections, in tab order. */
export type TabId =
  | 'chat'
  | 'activity'
  | 'modlog'
  | 'redemptions'
  | 'rewards'
  | 'ads'
  | 'stream'
  | 'streams'
  | 'obs'
  | 'overlays'
  | 'automation'
  | 'kicks'
  | 'health'
  | 'settings';

/** Which tabs a row shows and which go under "More", as indexes into the tab list, each in tab order. */
export interface TabFit {
  shown: number[];
  more: number[];
}

/**
 * Fits a row of tabs into `available` pixels ([design notes](../../../docs/design-notes.md#tabs-that-fit)).
 * `widths` are the tabs' widths with the gap after each. When all fit, all show and "More" is not needed;
 * otherwise the row keeps `moreWidth` for the "More" button and shows the tabs that fit, in order. The
 * selected tab always shows: when it would fall under "More", it takes the place of the last tabs that
 * fit before it, so a streamer never loses sight of where they are. Even when nothing fits, the selected
 * tab shows (its label is cut short by the row's CSS).
 */
export function fitTabs(widths: readonly number[], available: number, moreWidth: number, selected: number): TabFit {
  const all = widths.map((_, i) => i);
  const sum = (indexes: readonly number[]) => indexes.reduce((total, i) => total + (widths[i] ?? 0), 0);
  // Half a pixel of slack: widths are fractional and summing them rounds.
  if (sum(all) <= available + 0.5) {
    return { shown: all, more: [] };
  }
  const room = available - moreWidth + 0.5;
  const shown: number[] = [];
  for (const i of all) {
    if (sum([...shown, i]) > room) {
      break;
    }
    shown.push(i);
  }
  if (selected >= 0 && selected < widths.length && !shown.includes(selected)) {
    shown.push(selected);
    // Give up the last ordinary tabs until the selected one fits beside the rest.
    while (sum(shown) > room && shown.length > 1) {
      shown.splice(shown.length - 2, 1);
    }
  }
  shown.sort((a, b) => a - b);
  return { shown, more: all.filter((i) => !shown.includes(i)) };
}

/** The index after `from` in a list of `length` items, wrapping, or before it (`step` -1). */
export function wrapIndex(from: number, step: 1 | -1, length: number): number {
  return length === 0 ? -1 : (from + step + length) % length;
}

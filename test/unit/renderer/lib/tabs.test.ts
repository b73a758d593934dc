import { describe, expect, it } from 'vitest';
import { fitTabs, wrapIndex } from '../../../../renderer/src/lib/tabs';

// Eleven tabs of the panel's rough widths in a 340 px dock: Chat, Activity, Mod log, Redemptions, …
const WIDTHS = [50, 70, 70, 100, 70, 40, 65, 75, 90, 60, 90];
const MORE = 70;

describe('fitTabs', () => {
  it('shows every tab, and no "More", when all fit', () => {
    expect(fitTabs([50, 60, 70], 180, MORE, 0)).toEqual({ shown: [0, 1, 2], more: [] });
  });

  it('keeps room for "More" and puts the rest under it, in order', () => {
    // 340 − 70 for More leaves 270: Chat, Activity, Mod log (190) and not Redemptions (290).
    expect(fitTabs(WIDTHS, 340, MORE, 0)).toEqual({ shown: [0, 1, 2], more: [3, 4, 5, 6, 7, 8, 9, 10] });
  });

  it('always shows the selected tab, in place of the last ones that fit before it', () => {
    // Settings (90) takes Mod log's place: Chat, Activity, Settings = 210 of 270.
    expect(fitTabs(WIDTHS, 340, MORE, 10)).toEqual({ shown: [0, 1, 10], more: [2, 3, 4, 5, 6, 7, 8, 9] });
    expect(fitTabs(WIDTHS, 340, MORE, 3).shown).toEqual([0, 1, 3]);
    // With 200 for the tabs, Redemptions (100) needs two to give way: Chat and Redemptions = 150.
    expect(fitTabs(WIDTHS, 270, MORE, 3).shown).toEqual([0, 3]);
    // A selected tab that fits after the others takes nobody's place.
    expect(fitTabs(WIDTHS, 340, MORE, 5).shown).toEqual([0, 1, 2, 5]);
  });

  it('shows the selected tab alone when even it does not fit', () => {
    expect(fitTabs(WIDTHS, 100, MORE, 8)).toEqual({ shown: [8], more: [0, 1, 2, 3, 4, 5, 6, 7, 9, 10] });
    expect(fitTabs(WIDTHS, 100, MORE, 0).shown).toEqual([0]);
  });

  it('allows half a pixel for fractional widths, not more', () => {
    expect(fitTabs([100.3, 100.3], 200.5, MORE, 0).more).toEqual([]);
    expect(fitTabs([100.6, 100.6], 200.5, MORE, 0).more).toEqual([1]);
  });

  it('puts every tab under "More" but the selected one in a row too narrow for any beside it', () => {
    // 60 px beside "More": Chat (50) fits alone, but the selected Ads (40) takes its place.
    expect(fitTabs(WIDTHS, 130, MORE, 5)).toEqual({ shown: [5], more: [0, 1, 2, 3, 4, 6, 7, 8, 9, 10] });
  });
});

describe('wrapIndex', () => {
  it('steps forward and back, wrapping at both ends', () => {
    expect(wrapIndex(2, 1, 3)).toBe(0);
    expect(wrapIndex(0, -1, 3)).toBe(2);
    expect(wrapIndex(1, 1, 3)).toBe(2);
    expect(wrapIndex(0, 1, 0)).toBe(-1);
  });
});

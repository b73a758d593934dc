import { describe, expect, it } from 'vitest';
import { computeWindow } from '../../../../renderer/src/lib/virtual-window';
import { prefixOffsets } from './prefix-offsets';

describe('virtual window', () => {
  it('renders only rows in view plus overscan', () => {
    const offsets = prefixOffsets(1000, () => 20);
    const w = computeWindow(offsets, 1000, 2000, 400, 5);
    expect(w.start).toBe(95);
    expect(w.end).toBe(126);
    expect(w.padTop).toBe(1900);
    expect(w.padTop + (w.end - w.start) * 20 + w.padBottom).toBe(20000);
    expect(
      computeWindow(
        prefixOffsets(0, () => 20),
        0,
        0,
        400,
        5,
      ).end,
    ).toBe(0);
  });

  it('uses measured heights', () => {
    const offsets = prefixOffsets(4, (i) => (i === 1 ? 100 : 10));
    expect([...offsets]).toEqual([0, 10, 110, 120, 130]);
    expect(computeWindow(offsets, 4, 50, 10, 0)).toMatchObject({ start: 1, end: 2 });
  });
});

import { describe, expect, it } from 'vitest';
import { RowOffsets } from '../../../../renderer/src/lib/row-offsets';
import { computeWindow } from '../../../../renderer/src/lib/virtual-window';
import { prefixOffsets } from './prefix-offsets';

interface Row {
  messageId: string;
}

/** Deterministic pseudo-random numbers, so a failure replays. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** What the kept offsets must always equal: a full rebuild, read through the view's base. */
function expectSameAsRebuild(cache: RowOffsets, rows: Row[], heights: Map<string, number>, changed: Set<string>) {
  const heightOf = (i: number): number => heights.get(rows[i]!.messageId) ?? 28;
  const view = cache.update(rows, heightOf, changed);
  const full = prefixOffsets(rows.length, heightOf);
  expect(view.count).toBe(rows.length);
  const kept = Array.from({ length: rows.length + 1 }, (_, i) => view.offsets[i]! - view.base);
  expect(kept).toEqual(Array.from(full));
  expect(computeWindow(view.offsets, rows.length, 500, 400, 3, view.base)).toEqual(
    computeWindow(full, rows.length, 500, 400, 3),
  );
}

describe('row offsets kept between updates', () => {
  it('matches a full rebuild through appends, drops at the start, re-measures, filters and inserts', () => {
    const random = seeded(7);
    const cache = new RowOffsets();
    const heights = new Map<string, number>();
    let rows: Row[] = [];
    let next = 0;
    for (let step = 0; step < 2_000; step++) {
      const changed = new Set<string>();
      const roll = random();
      if (roll < 0.6) {
        // A frame of a raid: a few new rows, the oldest beyond the scrollback leave.
        const added = 1 + Math.floor(random() * 8);
        rows = [...rows, ...Array.from({ length: added }, () => ({ messageId: `m${next++}` }))].slice(-300);
      } else if (roll < 0.85 && rows.length > 0) {
        // Rows measured (mostly near the end, sometimes anywhere), some to the same height again.
        for (let k = 0; k < 4; k++) {
          const near = random() < 0.8;
          const i = near
            ? rows.length - 1 - Math.floor(random() * Math.min(30, rows.length))
            : Math.floor(random() * rows.length);
          const id = rows[i]!.messageId;
          heights.set(id, 20 + Math.floor(random() * 60));
          changed.add(id);
        }
      } else if (roll < 0.93) {
        // A search or ignore filter: rows vanish from the middle.
        rows = rows.filter(() => random() > 0.1);
      } else if (roll < 0.98 && rows.length > 2) {
        // An inline event row placed between older rows.
        const at = Math.floor(random() * rows.length);
        rows = [...rows.slice(0, at), { messageId: `e${next++}` }, ...rows.slice(at)];
      } else {
        rows = [];
      }
      expectSameAsRebuild(cache, rows, heights, changed);
    }
  });

  it('costs the new rows, not the whole list, when chat only grows and scrolls off the start', () => {
    const cache = new RowOffsets();
    let rows = Array.from({ length: 1_000 }, (_, i) => ({ messageId: `m${i}` }));
    cache.update(rows, () => 28, new Set());
    expect(cache.lastWork).toBe(1_000);
    for (let frame = 0; frame < 50; frame++) {
      rows = [...rows.slice(7), ...Array.from({ length: 7 }, (_, i) => ({ messageId: `n${frame}-${i}` }))];
      cache.update(rows, () => 28, new Set());
      expect(cache.lastWork).toBe(7);
    }
    // A row near the end measured taller: the rows from it on, not all of them.
    const tall = rows[995]!.messageId;
    const view = cache.update(rows, (i) => (rows[i]!.messageId === tall ? 80 : 28), new Set([tall]));
    expect(cache.lastWork).toBe(5);
    expect(view.offsets[1_000]! - view.base).toBe(999 * 28 + 80);
  });

  it('says the height it holds for a row, and nothing for a row that left', () => {
    const cache = new RowOffsets();
    const rows = [{ messageId: 'a' }, { messageId: 'b' }, { messageId: 'c' }];
    cache.update(rows, (i) => [24, 39, 24][i]!, new Set());
    expect(cache.height('b')).toBe(39);
    expect(cache.height('z')).toBeUndefined();
    // Re-measured, then dropped off the start as chat scrolls on.
    cache.update(rows, (i) => [24, 43, 24][i]!, new Set(['b']));
    expect(cache.height('b')).toBe(43);
    cache.update(rows.slice(2), () => 24, new Set());
    expect(cache.height('a')).toBeUndefined();
    expect(cache.height('b')).toBeUndefined();
    expect(cache.height('c')).toBe(24);
  });
});

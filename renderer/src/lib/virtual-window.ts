/**
 * Which rows of a long list to render. Rows are measured once rendered; rows not yet seen count at the
 * estimate. Offsets are prefix sums over at most `chatScrollback` rows (≤ 10,000), kept up to date row by row
 * between updates (`row-offsets.ts`).
 */

export interface VirtualWindow {
  start: number;
  end: number;
  padTop: number;
  padBottom: number;
  total: number;
}

/** The first row whose bottom is below `y` (offsets measured from `base`). */
function rowAt(offsets: Float64Array, count: number, y: number, base: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid + 1]! - base <= y) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return Math.min(lo, Math.max(0, count - 1));
}

/**
 * The rows covering [scrollTop, scrollTop + viewport] plus `overscan` rows each side. Row i's top is
 * `offsets[i] - base` (kept offsets do not start at zero once rows have left the start).
 */
export function computeWindow(
  offsets: Float64Array,
  count: number,
  scrollTop: number,
  viewport: number,
  overscan: number,
  base = 0,
): VirtualWindow {
  if (count === 0) {
    return { start: 0, end: 0, padTop: 0, padBottom: 0, total: 0 };
  }
  const total = offsets[count]! - base;
  const first = rowAt(offsets, count, Math.max(0, scrollTop), base);
  const last = rowAt(offsets, count, Math.max(0, scrollTop + viewport), base);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + 1 + overscan);
  return { start, end, padTop: offsets[start]! - base, padBottom: total - (offsets[end]! - base), total };
}

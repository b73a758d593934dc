/**
 * Row offsets the plain way, every row summed afresh: what `computeWindow` reads, and the oracle the kept
 * offsets (renderer/src/lib/row-offsets.ts) must always equal.
 */
export function prefixOffsets(count: number, heightOf: (index: number) => number): Float64Array {
  const offsets = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) {
    offsets[i + 1] = offsets[i]! + heightOf(i);
  }
  return offsets;
}

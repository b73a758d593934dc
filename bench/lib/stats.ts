/** Small statistics helpers the benchmarks share. */

/** The value at quantile `q` (0..1) of `values` (nearest rank); NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) {
    return Number.NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Rounds to `digits` decimals. */
export function round(value: number, digits = 0): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number, read: (path: string) => string): number {
  const status = read(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/**
 * Small random helpers for generated sandbox activity. The source is injectable (`Rng`) so a caller that
 * wants a repeatable run can pass a seeded one; the default is Math.random, since nothing here is secret.
 */

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** Math.random, for runs that need no repeatability. */
export const defaultRng: Rng = () => Math.random();

/** An integer in [min, max], both inclusive. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** True with probability `p`. */
export function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

/** One element of a non-empty list. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) {
    throw new RangeError('pick: empty list');
  }
  return items[Math.floor(rng() * items.length)]!;
}

/** Up to `n` distinct elements, in random order. */
export function sample<T>(rng: Rng, items: readonly T[], n: number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, Math.max(0, n));
}

/** One element chosen by weight (`[item, weight]` pairs with positive weights). */
export function weighted<T>(rng: Rng, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let roll = rng() * total;
  for (const [item, weight] of entries) {
    roll -= weight;
    if (roll < 0) {
      return item;
    }
  }
  return entries[entries.length - 1]![0];
}

/**
 * Keyed list helpers for the state classes. Plain module on purpose: the Maps and Sets here are local
 * scratch, never state, so they stay out of the rune files (where lint asks for reactive collections).
 */

/** Items from all lists, one per key; a later list's item replaces an earlier one's. */
export function mergeBy<T>(key: (item: T) => string, ...lists: readonly (readonly T[])[]): T[] {
  const byKey = new Map<string, T>();
  for (const list of lists) {
    for (const item of list) {
      byKey.set(key(item), item);
    }
  }
  return [...byKey.values()];
}

/** A lookup from key to value. */
export function indexBy<T, V>(items: readonly T[], key: (item: T) => string, value: (item: T) => V): Map<string, V> {
  return new Map(items.map((item) => [key(item), value(item)]));
}

/** A membership test over `values`. */
export function setOf(values: Iterable<string>): ReadonlySet<string> {
  return new Set(values);
}

/** ISO time for `<time datetime>` and wire timestamps. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

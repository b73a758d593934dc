/**
 * Deliveries the app has already shown but could not keep. The receiver publishes a delivery while its journal
 * write is still on its way to the disk (docs/decisions.md, "Shown while the journal write is on its way"), so
 * a write that fails leaves an event the panels, overlays and chat bot have seen and Kick will send again
 * (no 200 went out). Kick's retry must then be journaled without being announced a second time: no second
 * alert, no second bot reply, no second chat row.
 *
 * Keyed by message id and by body hash, like the dedup memory, so a twin from a duplicate subscription (same
 * body, other id) is recognised too. Bounded: a failing disk in a raid must not grow main's memory without
 * end; beyond `capacity` the oldest are forgotten, and their retry is shown once more, which is the cheaper
 * mistake than never showing it.
 */

export const DEFAULT_SHOWN_UNKEPT_CAPACITY = 10_000;

export interface ShownUnkept {
  /** A delivery with this id and body was published and then not kept. */
  remember(messageId: string, bodyHash: string): void;
  /** True (and forgotten) when this delivery, or its twin, was published and not kept before. */
  take(messageId: string, bodyHash: string): boolean;
  readonly size: number;
}

export function createShownUnkept(capacity = DEFAULT_SHOWN_UNKEPT_CAPACITY): ShownUnkept {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new RangeError('capacity must be an integer >= 1');
  }
  // Insertion-ordered: the first key is the oldest. One entry per delivery, reachable by either key.
  const byId = new Map<string, string>();
  const byHash = new Map<string, string>();

  /** Drops the entry holding this id and the one holding this hash (they may be two). */
  const forget = (messageId: string, bodyHash: string): void => {
    const hash = byId.get(messageId);
    const id = byHash.get(bodyHash);
    byId.delete(messageId);
    byHash.delete(bodyHash);
    if (hash !== undefined) {
      byHash.delete(hash);
    }
    if (id !== undefined) {
      byId.delete(id);
    }
  };

  return {
    remember(messageId, bodyHash) {
      forget(messageId, bodyHash);
      byId.set(messageId, bodyHash);
      byHash.set(bodyHash, messageId);
      while (byId.size > capacity) {
        const [oldId, oldHash] = byId.entries().next().value as [string, string];
        forget(oldId, oldHash);
      }
    },
    take(messageId, bodyHash) {
      const known = byId.has(messageId) || byHash.has(bodyHash);
      forget(messageId, bodyHash);
      return known;
    },
    get size() {
      return byId.size;
    },
  };
}

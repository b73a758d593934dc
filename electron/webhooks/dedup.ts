/**
 * Delivery dedup (design.md, asks 2): Kick delivers at least once, repeats a delivery under the same
 * message id, and resends the same payload under a new id (issues #193, #246). Both are caught here, by
 * message id and by SHA-256 of the raw body, within a bounded window: the newest `maxEntries` of each,
 * optionally only those younger than `maxAgeMs`. Refilled from the journal on start.
 */
import { createHash } from 'node:crypto';
import type { JournalRecord } from './types';

/** What a claim found. */
export type DedupVerdict = 'new' | 'duplicate-id' | 'duplicate-body';

export interface DeliveryDedup {
  /**
   * Claims a delivery: 'new' records both keys (roll back with {@link release} if it is then not kept),
   * otherwise says which key was already seen. Synchronous, so two concurrent copies cannot both win.
   */
  claim(messageId: string, bodyHash: string, nowMs: number): DedupVerdict;
  /** Forgets a claim whose journal append failed, so Kick's retry is accepted. */
  release(messageId: string, bodyHash: string): void;
  /** Records an already-accepted delivery (the journal on start). */
  remember(record: JournalRecord): void;
  /** Entries currently held (ids, body hashes). */
  size(): { ids: number; bodies: number };
}

export interface DeliveryDedupOptions {
  /** How many ids and how many body hashes are kept (each); default 50,000. */
  maxEntries?: number;
  /**
   * Entries older than this no longer count as seen; default: no age limit. Worth setting (a day, say):
   * some payloads carry no time of their own (`channel.followed`, a title changed back and forth in
   * `livestream.metadata.updated`), so a real repeat of one would be taken for a resend while in the window.
   */
  maxAgeMs?: number;
}

/** Default window: 50,000 ids and 50,000 body hashes (a few MB). */
export const DEFAULT_DEDUP_ENTRIES = 50_000;

/** SHA-256 of the raw body, lower-case hex (the journal's `bodyHash`). */
export function hashBody(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/**
 * A key → first-seen-time map evicted in insertion order (a Map iterates oldest first), so both the count
 * bound and the age bound drop from the front in O(1) per entry.
 */
class SeenWindow {
  readonly #seen = new Map<string, number>();
  readonly #maxEntries: number;
  readonly #maxAgeMs: number | undefined;

  constructor(maxEntries: number, maxAgeMs: number | undefined) {
    this.#maxEntries = maxEntries;
    this.#maxAgeMs = maxAgeMs;
  }

  get size(): number {
    return this.#seen.size;
  }

  has(key: string, nowMs: number): boolean {
    const at = this.#seen.get(key);
    return at !== undefined && (this.#maxAgeMs === undefined || at >= nowMs - this.#maxAgeMs);
  }

  add(key: string, atMs: number, nowMs: number): void {
    this.#seen.delete(key);
    this.#seen.set(key, atMs);
    this.#evict(nowMs);
  }

  delete(key: string): void {
    this.#seen.delete(key);
  }

  #evict(nowMs: number): void {
    const oldestAllowed = this.#maxAgeMs === undefined ? -Infinity : nowMs - this.#maxAgeMs;
    for (const [key, at] of this.#seen) {
      if (this.#seen.size <= this.#maxEntries && at >= oldestAllowed) {
        break;
      }
      this.#seen.delete(key);
    }
  }
}

/** Creates an empty dedup window. */
export function createDeliveryDedup(options: DeliveryDedupOptions = {}): DeliveryDedup {
  const maxEntries = options.maxEntries ?? DEFAULT_DEDUP_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`maxEntries must be ≥ 1, got ${maxEntries}`);
  }
  const ids = new SeenWindow(maxEntries, options.maxAgeMs);
  const bodies = new SeenWindow(maxEntries, options.maxAgeMs);
  return {
    claim(messageId, bodyHash, nowMs) {
      if (ids.has(messageId, nowMs)) {
        return 'duplicate-id';
      }
      if (bodies.has(bodyHash, nowMs)) {
        return 'duplicate-body';
      }
      ids.add(messageId, nowMs, nowMs);
      bodies.add(bodyHash, nowMs, nowMs);
      return 'new';
    },
    release(messageId, bodyHash) {
      ids.delete(messageId);
      bodies.delete(bodyHash);
    },
    remember(record) {
      // Journal records come oldest first, so the record's own time stands in for "now" during a refill.
      ids.add(record.messageId, record.receivedAtMs, record.receivedAtMs);
      bodies.add(record.bodyHash, record.receivedAtMs, record.receivedAtMs);
    },
    size: () => ({ ids: ids.size, bodies: bodies.size }),
  };
}

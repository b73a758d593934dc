/**
 * Delivery dedup ([design notes](../../../docs/design-notes.md#what-streamers-and-moderators-ask-for), asks 2): Kick delivers at least once, repeats a delivery under the same
 * message id, and duplicate subscriptions deliver the same payload under different ids at the same moment
 * (issues #193, #246). Four rules, each for a reason:
 *
 * - By message id, for the whole retention ({@link IdMemory}): a redelivery is recognised however many
 *   deliveries came in between, within a stated memory bound.
 * - By the event's own id where Kick gives one (`event-key.ts`: a chat line's `message_id`, a redemption's
 *   `id` and status), in the same memory for the same retention: the same event resent under a new message
 *   id is recognised after the body window too ([design notes](../../../docs/design-notes.md#kicks-own-event-ids)).
 * - By SHA-256 of the raw body only within {@link BODY_DEDUP_WINDOW_MS}: copies from duplicate
 *   subscriptions arrive together, while identical bodies minutes apart are real repeats (a title set back
 *   A → B → A, a viewer who follows again) and must be shown.
 * - A copy that arrives while the original's journal write is still pending waits for that write and gets
 *   its outcome: answered 200 only once the original is on disk, and 5xx with it if the write fails, so
 *   Kick retries both and nothing is acknowledged that is not journaled.
 */
import { hash } from 'node:crypto';
import { WIRE_ASSUMPTIONS } from '../../kick/wire-assumptions';
import { RecentKeys } from '../../core/recent-keys';
import { IdMemory, type IdMemoryDeps } from './id-memory';
import type { JournalRecord } from '../events/types';

/**
 * Identical bodies count as one only this close together. Duplicate subscriptions fan out from one event
 * in the same second; ten seconds leaves room for Kick's queue and a slow tunnel, and is far
 * shorter than any human repeat (a title changed and changed back, a re-follow).
 */
export const BODY_DEDUP_WINDOW_MS = 10_000;

/** Body hashes kept at most (a storm of 10,000 deliveries a second for the whole window: about 15 MB). */
export const MAX_BODY_HASHES = 100_000;

/** How an id is remembered by default: Kick's retry horizon (`WIRE_ASSUMPTIONS.webhookRetryHorizonSeconds`). */
export const DEFAULT_ID_RETENTION_MS = WIRE_ASSUMPTIONS.webhookRetryHorizonSeconds * 1000;

/** What a claim found. */
export type Claim =
  /** First sighting: journal it, then `settle(true)`, or `settle(false)` when the write failed. */
  | { verdict: 'new'; settle(kept: boolean): void }
  /** Already journaled (by message id, event id, or the same body within the window): answer 200, keep nothing. */
  | { verdict: 'duplicate-id' | 'duplicate-event' | 'duplicate-body' }
  /** The original's journal write is in flight: `kept` resolves with its outcome. */
  | { verdict: 'pending'; by: 'id' | 'event' | 'body'; kept: Promise<boolean> };

export interface DeliveryDedup {
  /**
   * Claims a delivery; `eventKey` is the event's own id (`eventKeyOf`), null when its type has none.
   * Synchronous, so two concurrent copies can never both be 'new'.
   */
  claim(messageId: string, bodyHash: string, nowMs: number, eventKey?: string | null): Claim;
  /** Records an already-accepted delivery (the journal, replayed at start) and its event key. */
  remember(record: JournalRecord, eventKey?: string | null): void;
  /** Ids remembered, body hashes in the window, and claims whose write is pending. */
  size(): { ids: number; bodies: number; pending: number };
  /** Closes the id memory's files. */
  close(): void;
}

export interface DeliveryDedupOptions {
  /** The id memory; default: in memory only, {@link DEFAULT_ID_RETENTION_MS} (tests). */
  ids?: Partial<IdMemoryDeps>;
  bodyWindowMs?: number;
  maxBodyHashes?: number;
}

/**
 * SHA-256 of the raw body, lower-case hex (the journal's `bodyHash`); one-shot, no Hash object per delivery. A
 * string is hashed as its UTF-8 bytes, the bytes it is journaled as, without a Buffer made for them.
 */
export function hashBody(body: Buffer | string): string {
  return hash('sha256', body, 'hex');
}

/**
 * A claim whose journal write is in flight. Its promise is made only when a copy comes to wait on it: nearly
 * every delivery is settled without one, and a promise and its resolver per delivery were garbage for nothing.
 */
class Pending {
  #kept: Promise<boolean> | null = null;
  #resolve: ((kept: boolean) => void) | null = null;
  #outcome: boolean | null = null;

  /** The write's outcome, for a copy that waits on it. */
  get kept(): Promise<boolean> {
    if (this.#outcome !== null) {
      return Promise.resolve(this.#outcome);
    }
    this.#kept ??= new Promise<boolean>((resolve) => (this.#resolve = resolve));
    return this.#kept;
  }

  resolve(kept: boolean): void {
    this.#outcome = kept;
    this.#resolve?.(kept);
  }
}

/** Creates the dedup; with `ids.dir` it loads the id memory an earlier run left there. */
export function createDeliveryDedup(options: DeliveryDedupOptions = {}): DeliveryDedup {
  const ids = new IdMemory({ dir: null, retentionMs: DEFAULT_ID_RETENTION_MS, ...options.ids });
  const windowMs = options.bodyWindowMs ?? BODY_DEDUP_WINDOW_MS;
  const maxBodies = options.maxBodyHashes ?? MAX_BODY_HASHES;
  const bodies = new RecentKeys(windowMs, maxBodies);
  const pendingIds = new Map<string, Pending>();
  const pendingEvents = new Map<string, Pending>();
  const pendingBodies = new Map<string, Pending>();

  return {
    claim(messageId, bodyHash, nowMs, eventKey = null) {
      const byId = pendingIds.get(messageId);
      if (byId) {
        return { verdict: 'pending', by: 'id', kept: byId.kept };
      }
      if (ids.has(messageId)) {
        return { verdict: 'duplicate-id' };
      }
      if (eventKey !== null) {
        const byEvent = pendingEvents.get(eventKey);
        if (byEvent) {
          return { verdict: 'pending', by: 'event', kept: byEvent.kept };
        }
        if (ids.has(eventKey)) {
          return { verdict: 'duplicate-event' };
        }
      }
      const byBody = pendingBodies.get(bodyHash);
      if (byBody) {
        return { verdict: 'pending', by: 'body', kept: byBody.kept };
      }
      if (bodies.has(bodyHash, nowMs)) {
        return { verdict: 'duplicate-body' };
      }
      const pending = new Pending();
      pendingIds.set(messageId, pending);
      pendingBodies.set(bodyHash, pending);
      if (eventKey !== null) {
        pendingEvents.set(eventKey, pending);
      }
      let settled = false;
      return {
        verdict: 'new',
        settle(kept) {
          if (settled) {
            return;
          }
          settled = true;
          pendingIds.delete(messageId);
          pendingBodies.delete(bodyHash);
          if (eventKey !== null) {
            pendingEvents.delete(eventKey);
          }
          if (kept) {
            ids.add(messageId, nowMs);
            if (eventKey !== null) {
              ids.add(eventKey, nowMs);
            }
            bodies.remember(bodyHash, nowMs);
          }
          pending.resolve(kept);
        },
      };
    },
    remember(record, eventKey = null) {
      ids.add(record.messageId, record.receivedAtMs);
      if (eventKey !== null) {
        ids.add(eventKey, record.receivedAtMs);
      }
      bodies.remember(record.bodyHash, record.receivedAtMs);
    },
    size: () => ({ ids: ids.stats().ids, bodies: bodies.size, pending: pendingIds.size }),
    close: () => ids.close(),
  };
}

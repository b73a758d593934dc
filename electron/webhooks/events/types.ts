/**
 * The contracts between the webhook pieces (receiver → journal → bus), so each is built and tested alone.
 * The hot path: socket → capped raw body → header checks → RSA verify → replay window → parse and the
 * own-channel check → dedup → journal append → 200 → validate → bus.
 */
import type { KickEventPayloads } from '../../../shared/kick/events';
import type { KickEventType } from '../../../shared/kick/scopes';

/** The six `Kick-Event-*` headers of one delivery, as received. */
export interface DeliveryHeaders {
  messageId: string;
  subscriptionId: string;
  signature: string;
  timestamp: string;
  type: string;
  version: string;
}

/** One accepted delivery as the journal keeps it: enough to rebuild the feed and the dedup memory. */
export interface JournalRecord {
  messageId: string;
  subscriptionId: string;
  type: string;
  version: string;
  /** `Kick-Event-Message-Timestamp` as sent. */
  timestamp: string;
  /** Epoch ms when Greenroom received it. */
  receivedAtMs: number;
  /** SHA-256 (hex) of the raw body, for payload-level dedup of Kick's resends under new ids. */
  bodyHash: string;
  /** The raw body, exactly as signed (UTF-8). */
  body: string;
}

/**
 * When an appended record must reach the disk. `'now'`: it is written at once, with whatever else is waiting (a
 * webhook, whose 200 waits on it; a record only Greenroom has). `'soon'`: a chat line from the live socket, which no
 * answer waits on and whose webhook copy Kick sends until the line is durable, may wait a few ms for company and
 * share one `fdatasync` with the records that come meanwhile
 * ([decisions](../../../docs/decisions.md#socket-lines-wait-for-company)). The promise resolves once it is durable
 * either way.
 */
export type AppendWhen = 'now' | 'soon';

export interface EventJournal {
  /** Durably appends (per the journal's fsync policy); the receiver answers 200 only after it resolves. */
  append(record: JournalRecord, when?: AppendWhen): Promise<void>;
  /** Every intact record, oldest first (a torn tail is skipped). */
  readAll(): Promise<JournalRecord[]>;
  close(): Promise<void>;
}

/** Counters for the health panel and for tests that check batching. */
export interface JournalStats {
  /** Appends written (and synced, per policy) and resolved. */
  appends: number;
  /** `write` calls that carried appends: one per group commit. */
  batches: number;
  /** `fdatasync` calls on segment files. */
  syncs: number;
  /** Segment files currently kept. */
  segments: number;
}

/** The file-backed `EventJournal`, plus its counters. */
export interface FileJournal extends EventJournal {
  stats(): JournalStats;
}

/** A parsed, validated event. Unknown types or versions are kept as `unknown`, never dropped. */
export type KickEvent =
  | {
      [T in KickEventType]: {
        kind: 'known';
        type: T;
        version: 1;
        messageId: string;
        subscriptionId: string;
        timestamp: string;
        receivedAtMs: number;
        payload: KickEventPayloads[T];
      };
    }[KickEventType]
  | {
      kind: 'unknown';
      type: string;
      version: string;
      messageId: string;
      subscriptionId: string;
      timestamp: string;
      receivedAtMs: number;
      payload: unknown;
      /** Why it could not be read as a known event (unknown type, unknown version, or a field problem). */
      reason: string;
    };

/** Receiver outcomes, counted for the connection-health panel. */
export interface ReceiverCounters {
  accepted: number;
  duplicates: number;
  rejected: number;
  /** Verified deliveries for another channel or a subscription Greenroom does not hold: 200, not acted on. */
  foreign: number;
  /** Rejections by error code (`WebhookSignature`, `WebhookStale`, …). */
  rejectedByCode: Record<string, number>;
}

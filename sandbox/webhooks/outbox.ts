/**
 * The queue of webhook messages waiting for an attempt, ordered by due time and then by the order they
 * were queued, so deliveries due at the same moment go out in event order.
 */

/** One message for one subscription, as it waits between attempts. */
export interface OutboxMessage {
  /** `Kick-Event-Message-Id`; copies injected as duplicates share it. */
  messageId: string;
  subscriptionId: string;
  clientId: string;
  eventType: string;
  eventVersion: number;
  broadcasterUserId: number;
  /** The exact bytes signed and sent, fixed once when the event was queued. */
  body: Buffer;
  /** When the event happened (sandbox clock). */
  eventAtMs: number;
  /** When the next attempt may be made. */
  dueAtMs: number;
  /** Attempts that failed so far. */
  failedAttempts: number;
  /** Queue order among messages with the same due time; set by the outbox. */
  seq: number;
}

/** A message before the outbox has numbered it. */
export type NewOutboxMessage = Omit<OutboxMessage, 'seq'>;

/** An in-memory queue; one per delivery engine. */
export class Outbox {
  readonly #queue: OutboxMessage[] = [];
  #nextSeq = 0;

  /** Messages waiting (due now or later). */
  get size(): number {
    return this.#queue.length;
  }

  /** Queues a new message behind everything already due at the same time. */
  add(message: NewOutboxMessage): OutboxMessage {
    const numbered: OutboxMessage = { ...message, seq: this.#nextSeq++ };
    this.#insert(numbered);
    return numbered;
  }

  /** Puts a message back (after a failed attempt) at its new due time, keeping its place among equals. */
  requeue(message: OutboxMessage): void {
    this.#insert(message);
  }

  /** Whether any message is due at `nowMs`. */
  hasDue(nowMs: number): boolean {
    const first = this.#queue[0];
    return first !== undefined && first.dueAtMs <= nowMs;
  }

  /** Removes and returns every message due at `nowMs`, in order. */
  takeDue(nowMs: number): OutboxMessage[] {
    let count = 0;
    while (count < this.#queue.length && this.#queue[count]!.dueAtMs <= nowMs) {
      count++;
    }
    return this.#queue.splice(0, count);
  }

  /** Removes and returns the first message due at `nowMs`, or undefined when none is due. */
  takeNextDue(nowMs: number): OutboxMessage | undefined {
    return this.hasDue(nowMs) ? this.#queue.shift() : undefined;
  }

  /** Due time of the earliest message, or null when the outbox is empty. */
  nextDueAtMs(): number | null {
    return this.#queue[0]?.dueAtMs ?? null;
  }

  /** Drops every message matching `predicate`; returns how many were dropped. */
  removeWhere(predicate: (message: OutboxMessage) => boolean): number {
    let removed = 0;
    for (let i = this.#queue.length - 1; i >= 0; i--) {
      if (predicate(this.#queue[i]!)) {
        this.#queue.splice(i, 1);
        removed++;
      }
    }
    return removed;
  }

  /** A read-only view in due order, for the admin API and tests. */
  snapshot(): readonly Readonly<OutboxMessage>[] {
    return [...this.#queue];
  }

  #insert(message: OutboxMessage): void {
    // Binary search for the first entry that sorts after the message.
    let lo = 0;
    let hi = this.#queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.#queue[mid]!;
      const after = other.dueAtMs > message.dueAtMs || (other.dueAtMs === message.dueAtMs && other.seq > message.seq);
      if (after) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    this.#queue.splice(lo, 0, message);
  }
}

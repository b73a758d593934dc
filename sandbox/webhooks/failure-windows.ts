/**
 * Tracks, per (app, event type), since when deliveries have been failing with no success in between:
 * the window Kick measures before its automatic unsubscription ([reference §3.11](../../docs/kick-wire-reference.md#311-event-subscriptions), [seed §6](../../docs/product-spec.md#6-events) rule 1).
 */

/** Stable key for one (app, event type) pair. */
export function failureKey(clientId: string, eventType: string): string {
  return `${clientId}\u0000${eventType}`;
}

/** First-failure times per (app, event type); a pair with no entry is healthy. */
export class FailureWindows {
  readonly #firstFailureAtMs = new Map<string, number>();

  /** Notes a failed attempt; returns when the current run of failures began. */
  recordFailure(clientId: string, eventType: string, atMs: number): number {
    const key = failureKey(clientId, eventType);
    const first = this.#firstFailureAtMs.get(key);
    if (first !== undefined) {
      return first;
    }
    this.#firstFailureAtMs.set(key, atMs);
    return atMs;
  }

  /** A delivered message ends the run of failures for its pair. */
  recordSuccess(clientId: string, eventType: string): void {
    this.#firstFailureAtMs.delete(failureKey(clientId, eventType));
  }

  /** Start of the current run of failures, or null when the pair is healthy. */
  failingSince(clientId: string, eventType: string): number | null {
    return this.#firstFailureAtMs.get(failureKey(clientId, eventType)) ?? null;
  }

  /** Forgets a pair (after its subscriptions were removed, a new subscription starts clean). */
  clear(clientId: string, eventType: string): void {
    this.#firstFailureAtMs.delete(failureKey(clientId, eventType));
  }
}

/** How the webhook delivery engine (`delivery.ts`) runs, and its defaults. */

/** How the engine runs; the sandbox passes `SandboxOptions.delivery` through. */
export interface DeliveryOptions {
  /**
   * 0: nothing is attempted until tick() or flush() (tests step the engine). Above 0, the engine is live:
   * a message is attempted as soon as it is queued, and a timer this often picks up messages that became
   * due later (retries, held-back deliveries, a clock moved forward).
   */
  tickMs: number;
  /** Per-attempt HTTP timeout in milliseconds. */
  attemptTimeoutMs: number;
  /** Attempts in flight at once, across every app; the rest wait their turn in due order. */
  maxConcurrentAttempts: number;
  /**
   * Resolve every webhook host to this address instead of asking DNS: lets a test (or a developer without
   * wildcard DNS) deliver to a localtunnel server's `<sub>.localhost` public URL on loopback.
   */
  resolveHostsTo?: string;
}

/**
 * How many attempts run at once by default. Kick's sender does not wait for earlier answers (a Go client
 * with no per-host connection cap), so a slow receiver sees the backlog as requests in flight, not as a
 * quiet queue at the sender: at 400 messages/s the app may take over a second per answer before the
 * sandbox holds anything back. Bounded so a hung receiver cannot make the sandbox open sockets without end
 * (the embedded sandbox's sockets and the receiver's share the app's file descriptors).
 */
export const MAX_CONCURRENT_ATTEMPTS = 512;

export const DEFAULT_OPTIONS: DeliveryOptions = {
  tickMs: 100,
  attemptTimeoutMs: 5000,
  maxConcurrentAttempts: MAX_CONCURRENT_ATTEMPTS,
};

/** How many attempts the engine's `attempts` list keeps (oldest dropped first). */
export const MAX_KEPT_ATTEMPTS = 10_000;
/** The list may run this far past {@link MAX_KEPT_ATTEMPTS} before the oldest are dropped. */
export const ATTEMPTS_TRIM_CHUNK = 1_000;

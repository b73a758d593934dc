import type { SandboxContext } from '../context';
import type { SandboxEvent } from '../state';

export interface DeliveryOptions {
  /** Milliseconds between delivery passes on the real timer (0 turns the timer off; tests call flush()). */
  tickMs: number;
  /** Per-attempt HTTP timeout in milliseconds. */
  attemptTimeoutMs: number;
}

/** One attempt to deliver one message, kept for the admin API and tests. */
export interface DeliveryAttempt {
  messageId: string;
  subscriptionId: string;
  clientId: string;
  eventType: string;
  url: string;
  attemptedAtMs: number;
  /** HTTP status, or null when the request failed (refused, timeout). */
  status: number | null;
  error: string | null;
}

// STUB: to be implemented. The public surface below is what admin routes and tests code against.
export class DeliveryEngine {
  readonly #ctx: SandboxContext;
  readonly #options: DeliveryOptions;
  readonly attempts: DeliveryAttempt[] = [];

  constructor(ctx: SandboxContext, options: Partial<DeliveryOptions> = {}) {
    this.#ctx = ctx;
    this.#options = { tickMs: 100, attemptTimeoutMs: 5000, ...options };
  }

  /** Subscribes to state events and starts the real-time timer. */
  start(): void {
    void this.#ctx;
    void this.#options;
  }

  /** Stops the timer and waits for in-flight attempts. */
  async stop(): Promise<void> {}

  /** Queues one event for every app subscribed to it (called for each state event). */
  enqueue(event: SandboxEvent): void {
    void event;
  }

  /** Attempts every delivery that is due now, once. */
  async tick(): Promise<void> {}

  /** Ticks until nothing is due at the current clock time (future retries stay queued). */
  async flush(): Promise<void> {}

  /** Deliveries waiting (due now or later). */
  pendingCount(): number {
    return 0;
  }
}

/**
 * The webhook delivery engine: fans state events out to subscribed apps, POSTs them signed as Kick does
 * (reference §5), retries failures on the sandbox clock and applies Kick's automatic unsubscription after
 * a day of continuous failure (reference §3.11, seed §3 and §6 rule 1).
 *
 * Timing choices the reference leaves open (§5.2 says only "the time the message was sent"; §9 question 10):
 * - A first attempt carries the time the message was created in `Kick-Event-Message-Timestamp`, so a
 *   delivery Kick held back (the `delaySeconds` fault, like Kick's prime-time delays) arrives with a visible
 *   lag between that header and its receipt: the lag Greenroom measures and shows.
 * - Every retry is re-signed with its own send time under the same message id, as Stripe and Svix do, so
 *   receivers with a replay window accept a retry hours later and still dedupe on the id.
 * - Each {@link DeliveryAttempt} keeps `eventAtMs` next to `attemptedAtMs`.
 */
import { Agent, type Dispatcher } from 'undici';
import type { SandboxContext } from '../context';
import type { SandboxEvent } from '../state';
import { FailureWindows } from './failure-windows';
import { messagesForEvent } from './fan-out';
import { Outbox, type OutboxMessage } from './outbox';
import { postWebhook } from './post-webhook';
import { hasFailedTooLong, isTooOldToRetry, nextAttemptAtMs } from './retry-policy';
import { buildWebhookHeaders } from './sign';

/** How the engine runs; the sandbox passes `SandboxOptions.delivery` through. */
export interface DeliveryOptions {
  /** Milliseconds between delivery passes on the real timer (0 turns the timer off; tests call flush()). */
  tickMs: number;
  /** Per-attempt HTTP timeout in milliseconds. */
  attemptTimeoutMs: number;
  /**
   * Resolve every webhook host to this address instead of asking DNS: lets a test (or a developer without
   * wildcard DNS) deliver to a localtunnel server's `<sub>.localhost` public URL on loopback.
   */
  resolveHostsTo?: string;
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
  /** 1 for the first attempt of this message copy, 2 for its first retry, … */
  attemptNumber: number;
  /** When the event happened; `attemptedAtMs - eventAtMs` is the delivery lag. */
  eventAtMs: number;
  /** The `Kick-Event-Message-Timestamp` value this attempt carried (and signed). */
  messageTimestamp: string;
  /** Whether the receiver answered 2xx. */
  delivered: boolean;
}

/** How many attempts {@link DeliveryEngine.attempts} keeps (oldest dropped first). */
export const MAX_KEPT_ATTEMPTS = 10_000;

/** How many attempts one pass runs at once. */
export const MAX_CONCURRENT_ATTEMPTS = 8;

const DEFAULT_OPTIONS: DeliveryOptions = { tickMs: 100, attemptTimeoutMs: 5000 };

/**
 * One per sandbox. Owns the outbox, the per-(app, event type) failure windows and the HTTP agent; reads
 * subscriptions and apps from state at every attempt, so dashboard and API changes apply to retries too.
 */
export class DeliveryEngine {
  readonly #ctx: SandboxContext;
  readonly #options: DeliveryOptions;
  /** Every attempt, oldest first, bounded by {@link MAX_KEPT_ATTEMPTS}. */
  readonly attempts: DeliveryAttempt[] = [];
  readonly #outbox = new Outbox();
  readonly #failures = new FailureWindows();
  #inFlight = 0;
  #unsubscribe: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** Passes run one after another; this is the tail of that chain. */
  #pass: Promise<void> = Promise.resolve();
  #dispatcher: Agent | null = null;

  constructor(ctx: SandboxContext, options: Partial<DeliveryOptions> = {}) {
    this.#ctx = ctx;
    this.#options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Subscribes to state events and starts the real-time timer. Calling it again does nothing. */
  start(): void {
    if (this.#unsubscribe) {
      return;
    }
    this.#unsubscribe = this.#ctx.state.onEvent((event) => this.enqueue(event));
    if (this.#options.tickMs > 0) {
      this.#scheduleTimer();
    }
  }

  /** Stops the timer and waits for in-flight attempts; queued messages stay queued. */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) {
      clearTimeout(this.#timer);
    }
    this.#timer = null;
    await this.#pass;
    const dispatcher = this.#dispatcher;
    this.#dispatcher = null;
    await dispatcher?.close();
  }

  /** Queues one event for every app subscribed to it (called for each state event). */
  enqueue(event: SandboxEvent): void {
    for (const message of messagesForEvent(this.#ctx.state, event, this.#ctx.clock.now())) {
      this.#outbox.add(message);
    }
  }

  /** Attempts every delivery that is due now, once. Passes never overlap; a second call waits its turn. */
  tick(): Promise<void> {
    const pass = this.#pass.then(() => this.#runPass());
    this.#pass = pass.catch((error: unknown) =>
      this.#ctx.log(`sandbox: webhooks: delivery pass failed: ${String(error)}`),
    );
    return pass;
  }

  /** Ticks until nothing is due at the current clock time (future retries stay queued). */
  async flush(): Promise<void> {
    do {
      await this.tick();
    } while (this.#outbox.hasDue(this.#ctx.clock.now()));
  }

  /** Deliveries waiting (due now or later), including those being attempted right now. */
  pendingCount(): number {
    this.#dropOrphans();
    return this.#outbox.size + this.#inFlight;
  }

  /** The queued messages in due order (not those in flight), for the admin API. */
  pendingMessages(): readonly Readonly<OutboxMessage>[] {
    this.#dropOrphans();
    return this.#outbox.snapshot();
  }

  /** Since when deliveries of `eventType` to the app have failed with no success, or null if they have not. */
  failingSince(clientId: string, eventType: string): number | null {
    return this.#failures.failingSince(clientId, eventType);
  }

  // --- Passes ---

  #scheduleTimer(): void {
    this.#timer = setTimeout(() => {
      this.#timer = null;
      // A failed pass is already logged by tick(); the timer keeps going regardless.
      void this.tick()
        .catch(() => undefined)
        .then(() => {
          // Re-armed only after the pass ends, so timer passes never overlap; stop() leaves it unarmed.
          if (this.#unsubscribe && this.#timer === null) {
            this.#scheduleTimer();
          }
        });
    }, this.#options.tickMs);
    // The sandbox must never keep a process (a test run, the CLI) alive on its own.
    this.#timer.unref();
  }

  async #runPass(): Promise<void> {
    this.#dropOrphans();
    const due = this.#outbox.takeDue(this.#ctx.clock.now());
    this.#inFlight += due.length;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < due.length) {
        const message = due[next++]!;
        try {
          await this.#attempt(message);
        } catch (error) {
          // A fault in one message (say, a key that cannot sign) must not stall the others.
          this.#ctx.log(`sandbox: webhooks: dropped ${message.messageId}: ${String(error)}`);
        } finally {
          this.#inFlight--;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_CONCURRENT_ATTEMPTS, due.length) }, worker));
  }

  // --- One attempt ---

  async #attempt(message: OutboxMessage): Promise<void> {
    const { state, clock, keys } = this.#ctx;
    const url = this.#deliverableUrl(message);
    if (url === null) {
      return;
    }
    const sentAtMs = clock.now();
    const stampedAtMs = message.failedAttempts === 0 ? message.eventAtMs : sentAtMs;
    const headers = buildWebhookHeaders({
      messageId: message.messageId,
      subscriptionId: message.subscriptionId,
      eventType: message.eventType,
      eventVersion: message.eventVersion,
      sentAtMs: stampedAtMs,
      body: message.body,
      privateKey: keys.privateKey,
    });
    const outcome = await postWebhook({
      dispatcher: this.#agent(),
      url,
      headers,
      body: message.body,
      timeoutMs: this.#options.attemptTimeoutMs,
    });
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    this.#record({
      messageId: message.messageId,
      subscriptionId: message.subscriptionId,
      clientId: message.clientId,
      eventType: message.eventType,
      url,
      attemptedAtMs: sentAtMs,
      status: outcome.status,
      error: outcome.error,
      attemptNumber: message.failedAttempts + 1,
      eventAtMs: message.eventAtMs,
      messageTimestamp: headers['Kick-Event-Message-Timestamp']!,
      delivered,
    });
    if (delivered) {
      this.#failures.recordSuccess(message.clientId, message.eventType);
      return;
    }
    // Unsubscribed while in flight (by the API or by an auto-removal): nothing left to retry or to count.
    if (!state.subscriptions.has(message.subscriptionId)) {
      return;
    }
    message.failedAttempts++;
    const failedAtMs = clock.now();
    const failingSince = this.#failures.recordFailure(message.clientId, message.eventType, sentAtMs);
    this.#ctx.log(
      `sandbox: webhooks: ${message.eventType} ${message.messageId} to ${url} failed (${outcome.status ?? outcome.error}), attempt ${message.failedAttempts}`,
    );
    if (hasFailedTooLong(failingSince, failedAtMs)) {
      this.#autoUnsubscribe(message.clientId, message.eventType, failingSince);
      return;
    }
    if (isTooOldToRetry(message.eventAtMs, failedAtMs)) {
      this.#ctx.log(`sandbox: webhooks: giving up on ${message.eventType} ${message.messageId} after a day of retries`);
      return;
    }
    message.dueAtMs = nextAttemptAtMs(failedAtMs, message.failedAttempts);
    this.#outbox.requeue(message);
  }

  /** The URL to post to now, or null when the message can no longer be delivered at all. */
  #deliverableUrl(message: OutboxMessage): string | null {
    const { state } = this.#ctx;
    if (!state.subscriptions.has(message.subscriptionId)) {
      return null;
    }
    const app = state.appByClientId(message.clientId);
    if (!app || !app.webhooksEnabled) {
      return null;
    }
    return app.webhookUrl;
  }

  /** Drops queued messages whose subscription is gone or whose app stopped taking webhooks. */
  #dropOrphans(): void {
    const dropped = this.#outbox.removeWhere((message) => this.#deliverableUrl(message) === null);
    if (dropped > 0) {
      this.#ctx.log(`sandbox: webhooks: dropped ${dropped} queued message(s) with no subscription or URL`);
    }
  }

  /**
   * Kick's rule: an app whose deliveries of one event type have failed for more than a day is unsubscribed
   * from that event type (every broadcaster) and has to subscribe again.
   */
  #autoUnsubscribe(clientId: string, eventType: string, failingSinceMs: number): void {
    const { state } = this.#ctx;
    const removed: string[] = [];
    for (const [id, subscription] of state.subscriptions) {
      if (subscription.clientId === clientId && subscription.event === eventType) {
        state.subscriptions.delete(id);
        removed.push(id);
      }
    }
    const dropped = this.#outbox.removeWhere((m) => m.clientId === clientId && m.eventType === eventType);
    this.#failures.clear(clientId, eventType);
    this.#ctx.log(
      `sandbox: webhooks: ${eventType} deliveries to app ${clientId} failing since ${new Date(failingSinceMs).toISOString()}: ` +
        `removed ${removed.length} subscription(s) [${removed.join(', ')}] and ${dropped} queued message(s)`,
    );
  }

  #record(attempt: DeliveryAttempt): void {
    this.attempts.push(attempt);
    if (this.attempts.length > MAX_KEPT_ATTEMPTS) {
      this.attempts.splice(0, this.attempts.length - MAX_KEPT_ATTEMPTS);
    }
  }

  #agent(): Dispatcher {
    // Created on first use and closed by stop(), so a stopped engine holds no sockets.
    const address = this.#options.resolveHostsTo;
    const family = address?.includes(':') ? 6 : 4;
    // Node asks for every address (`all`) when it may try several families; answer in the form asked.
    const lookup = address
      ? (_host: string, opts: { all?: boolean }, callback: (error: null, ...result: unknown[]) => void) =>
          opts.all ? callback(null, [{ address, family }]) : callback(null, address, family)
      : undefined;
    this.#dispatcher ??= new Agent({
      keepAliveTimeout: 4_000,
      connect: { timeout: this.#options.attemptTimeoutMs, ...(lookup ? { lookup } : {}) },
    });
    return this.#dispatcher;
  }
}

/**
 * The webhook delivery engine: fans state events out to subscribed apps, POSTs them signed as Kick does
 * ([reference §5](../../docs/kick-wire-reference.md#5-webhooks)), retries failures on the sandbox clock and applies Kick's automatic
 * unsubscription after a day of continuous failure ([reference §3.11](../../docs/kick-wire-reference.md#311-event-subscriptions),
 * [seed §3](../../docs/product-spec.md#3-states-and-transitions) and [§6](../../docs/product-spec.md#6-events) rule 1).
 *
 * How each attempt is stamped and signed (and why retries keep the message id): `send-attempt.ts`.
 *
 * Scheduling: Kick delivers concurrently, so a live engine starts an attempt as soon as a message is due
 * (up to {@link MAX_CONCURRENT_ATTEMPTS} at once, over a keep-alive pool) rather than in timed batches; a
 * burst of chat never waits for earlier deliveries' answers. Signing runs on a low-priority thread of its
 * own (`signer.ts`), so the embedded sandbox keeps the app's event loop and libuv's pool free.
 */
import type { Agent } from 'undici';
import type { SandboxContext } from '../context';
import type { SandboxEvent } from '../state';
import { FailureWindows } from './failure-windows';
import { messagesForEvent } from './fan-out';
import { Outbox, type OutboxMessage } from './outbox';
import { hasFailedTooLong, isTooOldToRetry, nextAttemptAtMs } from './retry-policy';
import { ATTEMPTS_TRIM_CHUNK, DEFAULT_OPTIONS, type DeliveryOptions, MAX_KEPT_ATTEMPTS } from './delivery-options';
import { createThreadSigner, type Signer } from './signer';
import { createDeliveryAgent, type DeliveryAttempt, sendAttempt } from './send-attempt';

export type { DeliveryAttempt } from './send-attempt';
export { type DeliveryOptions, MAX_CONCURRENT_ATTEMPTS, MAX_KEPT_ATTEMPTS } from './delivery-options';

/**
 * One per sandbox. Owns the outbox, the per-(app, event type) failure windows and the HTTP agent; reads
 * subscriptions and apps from state at every attempt, so dashboard and API changes apply to retries too.
 */
export class DeliveryEngine {
  readonly #ctx: SandboxContext;
  readonly #options: DeliveryOptions;
  /** Every attempt, oldest first: the last {@link MAX_KEPT_ATTEMPTS} at least, a thousand more at most. */
  readonly attempts: DeliveryAttempt[] = [];
  readonly #outbox = new Outbox();
  readonly #failures = new FailureWindows();
  /** Attempts running now; each removes itself when it ends. */
  readonly #inFlight = new Set<Promise<void>>();
  /** tick() calls waiting for a free slot, woken one per finished attempt. */
  readonly #slotWaiters: (() => void)[] = [];
  /** Messages a tick() has taken from the outbox and not yet started. */
  #takenByTicks = 0;
  /** tick() calls running now, so stop() can wait for them. */
  readonly #ticks = new Set<Promise<void>>();
  #pumpScheduled = false;
  #unsubscribe: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  /** Created on first use and closed by stop(), so a stopped engine holds no sockets. */
  #dispatcher: Agent | null = null;
  /** The signing thread (`signer.ts`), likewise. The sandbox's key is fixed for its life. */
  #signer: Signer | null = null;

  constructor(ctx: SandboxContext, options: Partial<DeliveryOptions> = {}) {
    this.#ctx = ctx;
    this.#options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Subscribes to state events and, when live, starts delivering. Calling it again does nothing. */
  start(): void {
    if (this.#unsubscribe) {
      return;
    }
    this.#unsubscribe = this.#ctx.state.onEvent((event) => this.enqueue(event));
    if (this.#live()) {
      this.#timer = setInterval(() => this.#pump(), this.#options.tickMs);
      // The sandbox must never keep a process (a test run, the CLI) alive on its own.
      this.#timer.unref();
    }
  }

  /** Stops delivering and waits for attempts in flight; queued messages stay queued. */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    if (this.#timer) {
      clearInterval(this.#timer);
    }
    this.#timer = null;
    while (this.#ticks.size > 0 || this.#inFlight.size > 0) {
      await Promise.all([...this.#ticks, ...this.#inFlight]);
    }
    const dispatcher = this.#dispatcher;
    const signer = this.#signer;
    this.#dispatcher = null;
    this.#signer = null;
    await Promise.all([dispatcher?.close(), signer?.close()]);
  }

  /** Queues one event for every app subscribed to it (called for each state event); a live engine starts at once. */
  enqueue(event: SandboxEvent): void {
    for (const message of messagesForEvent(this.#ctx.state, event, this.#ctx.clock.now())) {
      this.#outbox.add(message);
    }
    if (this.#unsubscribe && this.#live() && !this.#pumpScheduled) {
      // After the current turn: the event's emitter (an admin request, a scenario step) finishes first, and
      // a burst of events in one turn is taken in one go.
      this.#pumpScheduled = true;
      setImmediate(() => {
        this.#pumpScheduled = false;
        this.#pump();
      });
    }
  }

  /**
   * Attempts every delivery that is due now, once, within the concurrency limit; resolves when those
   * attempts have ended (a failed one is requeued for its retry time).
   */
  tick(): Promise<void> {
    const running = this.#runTick().finally(() => this.#ticks.delete(running));
    this.#ticks.add(running);
    return running;
  }

  /**
   * Ticks until nothing is due at the current clock time and nothing is in flight (future retries stay
   * queued).
   */
  async flush(): Promise<void> {
    do {
      await this.tick();
      while (this.#inFlight.size > 0) {
        await Promise.all([...this.#inFlight]);
      }
    } while (this.#outbox.hasDue(this.#ctx.clock.now()));
  }

  /** Deliveries waiting (due now or later), including those being attempted right now. */
  pendingCount(): number {
    this.#dropOrphans();
    return this.#outbox.size + this.#takenByTicks + this.#inFlight.size;
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

  // --- Scheduling ---

  #live(): boolean {
    return this.#options.tickMs > 0;
  }

  #hasFreeSlot(): boolean {
    return this.#inFlight.size < this.#options.maxConcurrentAttempts;
  }

  /** Live mode: starts due messages in order while slots are free. */
  #pump(): void {
    if (!this.#unsubscribe) {
      return;
    }
    const nowMs = this.#ctx.clock.now();
    while (this.#hasFreeSlot()) {
      const message = this.#outbox.takeNextDue(nowMs);
      if (!message) {
        return;
      }
      void this.#launch(message);
    }
  }

  async #runTick(): Promise<void> {
    this.#dropOrphans();
    const due = this.#outbox.takeDue(this.#ctx.clock.now());
    this.#takenByTicks += due.length;
    const launched: Promise<void>[] = [];
    for (const message of due) {
      while (!this.#hasFreeSlot()) {
        await new Promise<void>((resolve) => this.#slotWaiters.push(resolve));
      }
      this.#takenByTicks--;
      launched.push(this.#launch(message));
    }
    await Promise.all(launched);
  }

  /** Runs one attempt in a slot; when it ends, the slot goes to a waiting tick() or to the next due message. */
  #launch(message: OutboxMessage): Promise<void> {
    const running = this.#attempt(message)
      .catch((error: unknown) => {
        // A fault in one message (say, a key that cannot sign) must not stall the others.
        this.#ctx.log(`sandbox: webhooks: dropped ${message.messageId}: ${String(error)}`);
      })
      .finally(() => {
        this.#inFlight.delete(running);
        const waiter = this.#slotWaiters.shift();
        if (waiter) {
          waiter();
        } else if (this.#live()) {
          this.#pump();
        }
      });
    this.#inFlight.add(running);
    return running;
  }

  // --- One attempt ---

  async #attempt(message: OutboxMessage): Promise<void> {
    const { state, clock, keys } = this.#ctx;
    const url = this.#deliverableUrl(message);
    if (url === null) {
      return;
    }
    const sentAtMs = clock.now();
    const { attempt, outcome } = await sendAttempt({
      message,
      url,
      sentAtMs,
      now: () => clock.now(),
      privateKey: keys.privateKey,
      signer: (this.#signer ??= createThreadSigner(keys.privateKey)),
      dispatcher: (this.#dispatcher ??= createDeliveryAgent(this.#options)),
      timeoutMs: this.#options.attemptTimeoutMs,
    });
    this.#record(attempt);
    const { delivered } = attempt;
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

  /** Kick's rule: a day of failed deliveries of one event type unsubscribes the app from it (every broadcaster). */
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
    // Trimmed a chunk at a time: dropping one from the front moves the whole array, per delivery.
    if (this.attempts.length >= MAX_KEPT_ATTEMPTS + ATTEMPTS_TRIM_CHUNK) {
      this.attempts.splice(0, this.attempts.length - MAX_KEPT_ATTEMPTS);
    }
  }
}

/**
 * What the subscription-reconciler.test files share: their fixtures and helpers.
 */
import { AdjustableClock } from '../../../../../electron/core/clock';
import {
  createSubscriptionReconciler,
  type SubscriptionClient,
  type SubscriptionReconcilerDeps,
  type SubscriptionStatus,
} from '../../../../../electron/webhooks/subscriptions/subscription-reconciler';
import { ManualScheduler } from '../../../../helpers/manual-scheduler';
import type { KickEventSubscription, KickSubscribeResult } from '../../../../../shared/kick/resources';
import { KICK_EVENT_TYPES, type KickEventType } from '../../../../../shared/kick/scopes';

export const BROADCASTER = 123;
export const T0 = 1_750_000_000_000;

/** Kick's subscription endpoints over an in-memory list, with the failures and lags tests need. */
export class FakeKick implements SubscriptionClient {
  subscriptions: KickEventSubscription[] = [];
  calls: string[] = [];
  #next = 1;
  /** When set, list calls wait for this promise (to overlap reconciles). */
  listGate: Promise<void> | null = null;
  /** When set, lists leave out subscriptions created after this many existed (a lagging replica). */
  staleAfter: number | null = null;
  listError: Error | null = null;
  subscribeError: Error | null = null;
  unsubscribeError: Error | null = null;
  /** Per-type refusals in the create answer. */
  refuse = new Map<string, string>();
  /** Types the create answer leaves out altogether. */
  omit = new Set<string>();

  constructor(private readonly clock: AdjustableClock) {}

  add(event: string, options: { broadcaster?: number; version?: number; ageMs?: number } = {}): string {
    const id = `sub-${String(this.#next++).padStart(3, '0')}`;
    const created = new Date(this.clock.now() - (options.ageMs ?? 0)).toISOString();
    this.subscriptions.push({
      id,
      app_id: 'app-1',
      broadcaster_user_id: options.broadcaster ?? BROADCASTER,
      event,
      version: options.version ?? 1,
      method: 'webhook',
      created_at: created,
      updated_at: created,
    });
    return id;
  }

  async fetchEventsSubscriptions(input: { broadcasterUserId?: number } = {}): Promise<KickEventSubscription[]> {
    this.calls.push(`list ${input.broadcasterUserId}`);
    if (this.listGate) {
      await this.listGate;
    }
    if (this.listError) {
      throw this.listError;
    }
    // The real query filter is unverified ([reference §3.11](../../../../../docs/kick-wire-reference.md#311-event-subscriptions)), so the fake ignores it like a lax server.
    const visible = this.staleAfter === null ? this.subscriptions : this.subscriptions.slice(0, this.staleAfter);
    return visible.map((s) => ({ ...s }));
  }

  subscribeToEvents(input: { eventTypes: string[]; userId: number }): Promise<KickSubscribeResult[]> {
    this.calls.push(`subscribe ${input.userId} ${input.eventTypes.join(',')}`);
    if (this.subscribeError) {
      return Promise.reject(this.subscribeError);
    }
    const results: KickSubscribeResult[] = [];
    for (const name of input.eventTypes) {
      if (this.omit.has(name)) {
        continue;
      }
      const refusal = this.refuse.get(name);
      results.push(
        refusal ? { name, version: 1, error: refusal } : { name, version: 1, subscription_id: this.add(name) },
      );
    }
    return Promise.resolve(results);
  }

  unsubscribeFromEvent(ids: string | string[]): Promise<void> {
    const list = Array.isArray(ids) ? ids : [ids];
    this.calls.push(`unsubscribe ${list.join(',')}`);
    if (this.unsubscribeError) {
      return Promise.reject(this.unsubscribeError);
    }
    this.subscriptions = this.subscriptions.filter((s) => !list.includes(s.id));
    return Promise.resolve();
  }

  idsOf(event: string): string[] {
    return this.subscriptions.filter((s) => s.event === event).map((s) => s.id);
  }
}

export function setup(options: Partial<SubscriptionReconcilerDeps> & { wanted?: readonly KickEventType[] } = {}) {
  const clock = new AdjustableClock({ now: () => T0 });
  const kick = new FakeKick(clock);
  const logs: string[] = [];
  const published: SubscriptionStatus[][] = [];
  const scheduler = new ManualScheduler();
  const reconciler = createSubscriptionReconciler({
    client: kick,
    broadcasterUserId: BROADCASTER,
    wanted: KICK_EVENT_TYPES,
    clock,
    log: (line) => logs.push(line),
    onStatus: (s) => published.push(s),
    setTimer: scheduler.setTimer,
    ...options,
  });
  return { clock, kick, logs, published, scheduler, reconciler };
}

export const byType = (statuses: SubscriptionStatus[]) => new Map(statuses.map((s) => [s.type, s]));

/** Lets pending promise callbacks run (the fake answers at once, so a few turns are enough). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) {
    await Promise.resolve();
  }
}

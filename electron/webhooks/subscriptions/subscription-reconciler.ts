/**
 * Keeps the app's webhook subscriptions for one broadcaster exactly as wanted: one per event type, no
 * more, no fewer ([reference §3.11](../../../docs/kick-wire-reference.md#311-event-subscriptions), [§5.5](../../../docs/kick-wire-reference.md#55-expected-response-and-retries)).
 * - Kick does not refuse duplicates (KickDevDocs #246), and each duplicate delivers every event again under
 *   a new message id, so duplicates are deleted, keeping the oldest.
 * - Kick removes a subscription whose deliveries keep failing for over a day, and all of them when webhooks
 *   are switched off for the app; a type that was active and disappears is subscribed again, and logged.
 * - A type the streamer no longer wants (unticked in Settings) is deleted at Kick, or Kick would keep
 *   delivering it; only types Greenroom knows are touched, so a newer event type is never deleted blindly.
 * - Nothing is ever created twice: concurrent `reconcile()` calls share one run, and ids just created are
 *   remembered until a list shows them, so a list that lags behind does not cause a second create.
 * - Each run reports the ids it leaves in place for this broadcaster (`onRun`): the receiver acts only on
 *   deliveries of those ([design notes](../../../docs/design-notes.md#only-the-signed-in-channels-events)).
 */
import { type ErrorValue, isAppError } from '../../../shared/errors';
import type { KickEventSubscription } from '../../../shared/kick/resources';
import { isKickEventType, type KickEventType } from '../../../shared/kick/scopes';
import type { Clock } from '../../core/clock';
import { nodeTimer, type SetTimer, type Timer } from '../../core/scheduler';
import type { KickClient } from '../../kick/kick-client';

/** Every event type Kick documents is at version 1 ([reference §5.6](../../../docs/kick-wire-reference.md#56-event-catalogue)); `subscribeToEvents` asks for it. */
const EVENT_VERSION = 1;

export type SubscriptionClient = Pick<
  KickClient,
  'fetchEventsSubscriptions' | 'subscribeToEvents' | 'unsubscribeFromEvent'
>;

/** One wanted event type as of the last reconcile. */
export interface SubscriptionStatus {
  type: KickEventType;
  /**
   * `active`: subscribed (listed, or just created). `missing`: not subscribed and Kick gave no reason (it
   * answered the create without an item for this type). `error`: Kick refused, or a call failed; see `error`.
   */
  state: 'active' | 'missing' | 'error';
  subscriptionId?: string;
  /** Why the type is in `error` (or why its duplicates could not be deleted). */
  error?: ErrorValue;
  /** Epoch ms of the reconcile that produced this entry. */
  lastCheckedAt: number;
}

export interface SubscriptionReconcilerDeps {
  client: SubscriptionClient;
  broadcasterUserId: number;
  wanted: readonly KickEventType[];
  clock: Clock;
  log?: (line: string) => void;
  /** How often start() reconciles; default 5 minutes. */
  intervalMs?: number;
  /** How long a created id missing from lists is trusted to exist; default twice the interval. */
  pendingGraceMs?: number;
  onStatus?: (statuses: SubscriptionStatus[]) => void;
  /**
   * Told when a run starts and when it ends, with every subscription id the run leaves in place for this
   * broadcaster (listed, of any event type, minus those it deleted, plus those it created and those created
   * moments ago and not yet listed), or null when Kick could not be listed.
   */
  onRun?: { started(): void; ended(held: readonly string[] | null): void };
  setTimer?: SetTimer;
}

export interface SubscriptionReconciler {
  /** Lists, deletes duplicates, creates what is missing. Never rejects for Kick's errors: see status(). */
  reconcile(): Promise<SubscriptionStatus[]>;
  /** Per wanted type, in the order wanted; empty before the first reconcile. */
  status(): SubscriptionStatus[];
  /** Reconciles now and then every `intervalMs` until stop(). */
  start(): void;
  stop(): void;
}

export const DEFAULT_RECONCILE_INTERVAL_MS = 5 * 60_000;

export function createSubscriptionReconciler(options: SubscriptionReconcilerDeps): SubscriptionReconciler {
  const { client, broadcasterUserId, clock } = options;
  const wanted = [...new Set(options.wanted)];
  const log = options.log ?? (() => undefined);
  const setTimer = options.setTimer ?? nodeTimer;
  const intervalMs = options.intervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS;
  const pendingGraceMs = options.pendingGraceMs ?? 2 * intervalMs;

  let statuses: SubscriptionStatus[] = [];
  let inFlight: Promise<SubscriptionStatus[]> | null = null;
  let timer: Timer | null = null;
  let running = false;
  /** Types seen active (listed or created): if one disappears, Kick removed it. */
  const active = new Map<KickEventType, string>();
  /** Created but not yet seen in a list: id and when it was created. */
  const pending = new Map<KickEventType, { id: string; createdAt: number }>();
  /** The ids the run under way leaves in place; null until its list comes back. */
  let held: Set<string> | null = null;

  function publish(next: SubscriptionStatus[]): SubscriptionStatus[] {
    statuses = next;
    options.onStatus?.(next);
    return next;
  }

  async function run(): Promise<SubscriptionStatus[]> {
    const now = clock.now();
    let listed: KickEventSubscription[];
    try {
      listed = await client.fetchEventsSubscriptions({ broadcasterUserId });
    } catch (error) {
      const value = toErrorValue(error);
      log(`subscriptions: could not list them: ${value.code}: ${value.message}`);
      return publish(wanted.map((type) => ({ type, state: 'error', error: value, lastCheckedAt: now })));
    }

    const ours = listed.filter((s) => s.broadcaster_user_id === broadcasterUserId);
    held = new Set(ours.map((s) => s.id));
    const { kept, duplicates } = splitDuplicates(ours.filter((s) => s.version === EVENT_VERSION));
    const result = new Map<KickEventType, SubscriptionStatus>();
    const missing: KickEventType[] = [];
    for (const type of wanted) {
      const found = kept.get(type);
      const created = pending.get(type);
      if (found) {
        pending.delete(type);
        active.set(type, found.id);
        result.set(type, { type, state: 'active', subscriptionId: found.id, lastCheckedAt: now });
      } else if (created && now - created.createdAt < pendingGraceMs) {
        // Created by us moments ago and not listed yet: trust it rather than create a duplicate.
        held.add(created.id);
        result.set(type, { type, state: 'active', subscriptionId: created.id, lastCheckedAt: now });
      } else {
        pending.delete(type);
        if (active.delete(type)) {
          log(
            `warning: subscriptions: Kick removed the subscription for ${type} (deliveries failing for over a day?); subscribing again`,
          );
        }
        missing.push(type);
      }
    }

    const wantedSet = new Set<string>(wanted);
    const unwanted = [...kept.values()].filter((s) => !wantedSet.has(s.event) && isKickEventType(s.event));
    for (const subscription of unwanted) {
      active.delete(subscription.event as KickEventType);
      pending.delete(subscription.event as KickEventType);
    }
    await deleteUnwanted(unwanted);
    await deleteDuplicates(duplicates, result);
    await createMissing(missing, result, now);
    return publish(wanted.map((type) => result.get(type)!));
  }

  /** The kept subscription of each type no longer wanted (its duplicates go with the duplicates); a failure is tried again next run. */
  async function deleteUnwanted(unwanted: KickEventSubscription[]): Promise<void> {
    if (unwanted.length === 0) {
      return;
    }
    const summary = unwanted.map((s) => s.event).join(', ');
    try {
      await client.unsubscribeFromEvent(unwanted.map((s) => s.id));
      unwanted.forEach((s) => held?.delete(s.id));
      log(`subscriptions: deleted ${summary}, no longer wanted`);
    } catch (error) {
      const value = toErrorValue(error);
      log(`subscriptions: could not delete ${summary} (no longer wanted): ${value.code}: ${value.message}`);
    }
  }

  async function deleteDuplicates(
    duplicates: KickEventSubscription[],
    result: Map<KickEventType, SubscriptionStatus>,
  ): Promise<void> {
    if (duplicates.length === 0) {
      return;
    }
    const summary = [...new Set(duplicates.map((d) => d.event))].join(', ');
    try {
      await client.unsubscribeFromEvent(duplicates.map((d) => d.id));
      duplicates.forEach((d) => held?.delete(d.id));
      log(`subscriptions: deleted ${duplicates.length} duplicate(s) of ${summary}`);
    } catch (error) {
      const value = toErrorValue(error);
      log(`subscriptions: could not delete duplicates of ${summary}: ${value.code}: ${value.message}`);
      for (const duplicate of duplicates) {
        const entry = result.get(duplicate.event as KickEventType);
        if (entry) {
          entry.state = 'error';
          entry.error = value;
        }
      }
    }
  }

  async function createMissing(
    missing: KickEventType[],
    result: Map<KickEventType, SubscriptionStatus>,
    now: number,
  ): Promise<void> {
    if (missing.length === 0) {
      return;
    }
    try {
      const created = await client.subscribeToEvents({ eventTypes: missing, userId: broadcasterUserId });
      for (const type of missing) {
        const item = created.find((c) => c.name === type);
        if (item?.subscription_id) {
          held?.add(item.subscription_id);
          pending.set(type, { id: item.subscription_id, createdAt: now });
          active.set(type, item.subscription_id);
          result.set(type, { type, state: 'active', subscriptionId: item.subscription_id, lastCheckedAt: now });
        } else if (item?.error) {
          const error: ErrorValue = { code: 'BadRequest', message: `Kick refused ${type}: ${item.error}` };
          result.set(type, { type, state: 'error', error, lastCheckedAt: now });
        } else {
          result.set(type, { type, state: 'missing', lastCheckedAt: now });
        }
      }
      log(`subscriptions: asked Kick for ${missing.join(', ')}`);
    } catch (error) {
      // Kick may have created some before failing; the next run lists first, so it will not create them twice.
      const value = toErrorValue(error);
      log(`subscriptions: could not subscribe to ${missing.join(', ')}: ${value.code}: ${value.message}`);
      for (const type of missing) {
        result.set(type, { type, state: 'error', error: value, lastCheckedAt: now });
      }
    }
  }

  function reconcile(): Promise<SubscriptionStatus[]> {
    if (!inFlight) {
      held = null;
      options.onRun?.started();
      inFlight = run().finally(() => {
        inFlight = null;
        options.onRun?.ended(held === null ? null : [...held]);
      });
    }
    return inFlight;
  }

  function tick(): void {
    timer = null;
    reconcile()
      // reconcile() reports Kick's errors as status; this only catches a throwing onStatus.
      .catch((error: unknown) => log(`subscriptions: reconcile failed: ${toErrorValue(error).message}`))
      .finally(() => {
        if (running) {
          timer = setTimer(tick, intervalMs);
        }
      });
  }

  return {
    reconcile,
    status: () => statuses,
    start() {
      if (running) {
        return;
      }
      running = true;
      tick();
    },
    stop() {
      running = false;
      timer?.cancel();
      timer = null;
    },
  };
}

/** Per event type, the oldest subscription, and every other one as a duplicate. */
function splitDuplicates(subscriptions: KickEventSubscription[]): {
  kept: Map<string, KickEventSubscription>;
  duplicates: KickEventSubscription[];
} {
  const oldestFirst = [...subscriptions].sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id.localeCompare(b.id),
  );
  const kept = new Map<string, KickEventSubscription>();
  const duplicates: KickEventSubscription[] = [];
  for (const subscription of oldestFirst) {
    if (kept.has(subscription.event)) {
      duplicates.push(subscription);
    } else {
      kept.set(subscription.event, subscription);
    }
  }
  return { kept, duplicates };
}

function toErrorValue(error: unknown): ErrorValue {
  if (isAppError(error)) {
    return error.toValue();
  }
  return { code: 'Internal', message: error instanceof Error ? error.message : String(error) };
}

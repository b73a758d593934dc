/**
 * Event triggers, like `twitch event trigger`: fire any of Kick's ten webhook events for a channel with
 * realistic generated data. Each trigger makes the state change Kick's would (a stored chat message, a
 * follow, a sub count, a ban, a redemption, the channel going live) and then emits through the normal
 * path, with optional payload overrides and delivery faults (duplicates, a fresh-id resend, lateness,
 * reversed arrival). Spacing triggers in real time (`rate`) is the caller's job (see admin/jobs.ts).
 */
import type { KickEventPayloads } from '../shared/kick/events';
import { isKickEventType, KICK_EVENT_TYPES, type KickEventType } from '../shared/kick/scopes';
import type { SandboxContext } from './context';
import { type GenerateContext, requireChannel, TriggerInputError } from './admin/generate-context';
import { generateChatMessage } from './admin/generate-chat';
import { generateBan } from './admin/generate-moderation';
import { generateRedemption } from './admin/generate-redemption';
import { generateMetadata, generateStatus } from './admin/generate-stream';
import {
  generateFollow,
  generateGifts,
  generateKicks,
  generateNewSubscription,
  generateRenewal,
} from './admin/generate-support';
import { applyOverrides, OverrideError, type Overrides, parseOverrides, readOverride } from './admin/overrides';
import { defaultRng, type Rng } from './admin/random';
import type { DeliveryFaults, SandboxEvent, SandboxState } from './state';
import { CHATTERS_MAX, chatterPool, STREAMER_USER_ID } from './world';

export { TriggerInputError } from './admin/generate-context';

/** Bounds on trigger input, so a typo cannot queue a million deliveries. */
export const TRIGGER_LIMITS = {
  countMax: 1000,
  /** Distinct chatters one chat trigger may ask for. */
  chattersMax: CHATTERS_MAX,
  duplicatesMax: 10,
  /** Two days: enough to show a delivery arriving after Kick's one-day failure window. */
  delaySecondsMax: 172_800,
} as const;

/** How to fire: where, how many, what to override and which delivery faults to inject. */
export interface TriggerOptions {
  /** Channel the events happen in; defaults to the sandbox streamer. */
  broadcasterUserId?: number;
  /** How many events (each with fresh generated data); default 1. */
  count?: number;
  /**
   * Chat only: the lines come from this many distinct viewers, in turn (line i from the (i mod N)-th), the
   * seeded viewers first, then crowd viewers made as needed. Absent: each line from a random viewer.
   */
  chatters?: number;
  /** Deep-merged into every generated payload; fields that name state (content, users, amounts) steer it too. */
  overrides?: Overrides;
  /** Extra identical deliveries (same message id) of each event. */
  duplicates?: number;
  /** Also deliver each event again under a new message id. */
  resendWithNewId?: boolean;
  /** Hold every delivery back this many seconds. */
  delaySeconds?: number;
  /** Give the burst decreasing delays so its deliveries arrive in reverse order. */
  outOfOrder?: boolean;
  /** Seconds between reversed arrivals (default 1); callers spacing a burst in real time pass more. */
  outOfOrderStepSeconds?: number;
  rng?: Rng;
}

/** A checked trigger, ready to fire event by event (a rate job fires one index per tick). */
export interface TriggerPlan {
  type: KickEventType;
  broadcasterUserId: number;
  count: number;
  /** The chatters' ids in turn (`chatters`), or null. */
  chatters: number[] | null;
  overrides: Overrides;
  duplicates: number;
  resendWithNewId: boolean;
  delaySeconds: number;
  outOfOrder: boolean;
  outOfOrderStepSeconds: number;
  rng: Rng;
}

const GENERATORS: Record<KickEventType, (g: GenerateContext) => void> = {
  'chat.message.sent': (g) => generateChatMessage(g),
  'channel.followed': generateFollow,
  'channel.subscription.renewal': generateRenewal,
  'channel.subscription.gifts': generateGifts,
  'channel.subscription.new': generateNewSubscription,
  'channel.reward.redemption.updated': generateRedemption,
  'livestream.status.updated': generateStatus,
  'livestream.metadata.updated': generateMetadata,
  'moderation.banned': generateBan,
  'kicks.gifted': generateKicks,
};

function checkInt(field: string, value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) {
    return fallback;
  }
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new TriggerInputError(`${field}: must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** Validates a trigger; throws TriggerInputError naming the field (admin API names) on bad input. */
export function planTrigger(ctx: SandboxContext, type: string, options: TriggerOptions = {}): TriggerPlan {
  if (!isKickEventType(type)) {
    throw new TriggerInputError(`event_type: must be one of ${KICK_EVENT_TYPES.join(', ')}`);
  }
  const broadcasterUserId = options.broadcasterUserId ?? STREAMER_USER_ID;
  requireChannel(ctx.state, broadcasterUserId);
  const delaySeconds = options.delaySeconds ?? 0;
  if (!Number.isFinite(delaySeconds) || delaySeconds < 0 || delaySeconds > TRIGGER_LIMITS.delaySecondsMax) {
    throw new TriggerInputError(`delay_seconds: must be a number from 0 to ${TRIGGER_LIMITS.delaySecondsMax}`);
  }
  const step = options.outOfOrderStepSeconds ?? 1;
  if (!Number.isFinite(step) || step <= 0) {
    throw new TriggerInputError('out_of_order: step must be a positive number');
  }
  let overrides: Overrides;
  try {
    overrides = parseOverrides(options.overrides);
  } catch (error) {
    if (error instanceof OverrideError) {
      throw new TriggerInputError(error.message);
    }
    throw error;
  }
  if (options.chatters !== undefined && type !== 'chat.message.sent') {
    throw new TriggerInputError('chatters: only for chat.message.sent');
  }
  const chatters =
    options.chatters === undefined ? null : checkInt('chatters', options.chatters, 1, TRIGGER_LIMITS.chattersMax, 1);
  return {
    type,
    broadcasterUserId,
    count: checkInt('count', options.count, 1, TRIGGER_LIMITS.countMax, 1),
    chatters: chatters === null ? null : chatterPool(ctx.state, broadcasterUserId, chatters, ctx.urls.api),
    overrides,
    duplicates: checkInt('duplicates', options.duplicates, 0, TRIGGER_LIMITS.duplicatesMax, 0),
    resendWithNewId: options.resendWithNewId ?? false,
    delaySeconds,
    outOfOrder: options.outOfOrder ?? false,
    outOfOrderStepSeconds: step,
    rng: options.rng ?? defaultRng,
  };
}

/** The delivery faults of the `index`-th event of a plan, or undefined when it has none. */
export function faultsFor(plan: TriggerPlan, index: number): DeliveryFaults | undefined {
  const reversal = plan.outOfOrder ? (plan.count - 1 - index) * plan.outOfOrderStepSeconds : 0;
  const faults: DeliveryFaults = {};
  if (plan.duplicates > 0) {
    faults.duplicates = plan.duplicates;
  }
  if (plan.resendWithNewId) {
    faults.resendWithNewId = true;
  }
  if (plan.delaySeconds + reversal > 0) {
    faults.delaySeconds = plan.delaySeconds + reversal;
  }
  return Object.keys(faults).length > 0 ? faults : undefined;
}

/**
 * A view of the state whose `emit` is `sink`, for code that emits by itself (`redeemReward`); every other
 * member is the real state's, bound to it so its private fields still work.
 */
function withSink(state: SandboxState, sink: (event: SandboxEvent) => void): SandboxState {
  return new Proxy(state, {
    get(target, property) {
      if (property === 'emit') {
        return sink;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Fires the `index`-th event of a plan (0-based) and returns what was emitted. */
export function fireTrigger(ctx: SandboxContext, plan: TriggerPlan, index: number): SandboxEvent[] {
  const channel = requireChannel(ctx.state, plan.broadcasterUserId);
  const faults = faultsFor(plan, index);
  const fired: SandboxEvent[] = [];
  const sink = (event: SandboxEvent): void => {
    const payload = applyOverrides(structuredClone(event.payload), plan.overrides);
    const out: SandboxEvent = { ...event, payload };
    if (faults) {
      out.delivery = { ...faults };
    }
    fired.push(out);
    ctx.state.emit(out);
  };
  // A sender the trigger chose in turn steers the line like a `sender.user_id` override; one given wins.
  const chatter = plan.chatters?.[index % plan.chatters.length];
  const g: GenerateContext = {
    ctx,
    state: ctx.state,
    channel,
    broadcasterUserId: plan.broadcasterUserId,
    overrides:
      chatter === undefined ||
      readOverride(plan.overrides, 'sender.user_id') !== undefined ||
      readOverride(plan.overrides, 'sender.username') !== undefined
        ? plan.overrides
        : { ...plan.overrides, 'sender.user_id': chatter },
    rng: plan.rng,
    emit: <T extends KickEventType>(type: T, payload: KickEventPayloads[T]) =>
      sink({ type, version: 1, broadcasterUserId: plan.broadcasterUserId, payload }),
    sinkState: withSink(ctx.state, sink),
  };
  GENERATORS[plan.type](g);
  return fired;
}

/**
 * Fires `count` events of one type at once and returns every event emitted. Throws TriggerInputError on
 * bad options (before anything happens) or when the state refuses an event (e.g. a paused reward).
 */
export function triggerEvent(ctx: SandboxContext, type: string, options: TriggerOptions = {}): SandboxEvent[] {
  const plan = planTrigger(ctx, type, options);
  const events: SandboxEvent[] = [];
  for (let i = 0; i < plan.count; i++) {
    events.push(...fireTrigger(ctx, plan, i));
  }
  return events;
}

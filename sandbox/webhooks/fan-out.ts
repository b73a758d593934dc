/**
 * Turns one state event into the webhook messages Kick would send: one per matching subscription whose
 * app has webhooks on and a URL, plus the injected duplicates and re-sends.
 */
import { createUlid } from '../../electron/core/ids';
import type { DeliveryFaults, SandboxEvent, SandboxState } from '../state';
import type { NewOutboxMessage } from './outbox';

/**
 * Ceiling on injected same-id copies per message, so a mistyped trigger cannot flood the outbox. Kick's
 * real duplicates come one or two at a time (issues #193, #246).
 */
export const MAX_INJECTED_DUPLICATES = 100;

/** Ceiling on an injected hold-back: Kick gives up on a delivery after a day, so longer is meaningless. */
export const MAX_INJECTED_DELAY_SECONDS = 86_400;

/** Injected faults reduced to safe whole numbers. */
export interface NormalizedFaults {
  duplicates: number;
  resendWithNewId: boolean;
  delayMs: number;
}

/** Clamps the faults a trigger asked for; anything not a finite non-negative number counts as none. */
export function normalizeFaults(faults: DeliveryFaults | undefined): NormalizedFaults {
  const whole = (value: number | undefined, max: number): number =>
    value !== undefined && Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), max) : 0;
  const delaySeconds = faults?.delaySeconds;
  const delay =
    delaySeconds !== undefined && Number.isFinite(delaySeconds) && delaySeconds > 0
      ? Math.min(delaySeconds, MAX_INJECTED_DELAY_SECONDS)
      : 0;
  return {
    duplicates: whole(faults?.duplicates, MAX_INJECTED_DUPLICATES),
    resendWithNewId: faults?.resendWithNewId === true,
    delayMs: Math.round(delay * 1000),
  };
}

/**
 * The messages for one event at `nowMs`. The body is serialized once, so every copy (duplicate, re-send,
 * every subscription) carries and signs byte-identical JSON. Two identical subscriptions give two
 * messages with different ids, which is what Kick does.
 */
export function messagesForEvent(state: SandboxState, event: SandboxEvent, nowMs: number): NewOutboxMessage[] {
  const faults = normalizeFaults(event.delivery);
  const body = Buffer.from(JSON.stringify(event.payload) ?? 'null', 'utf8');
  const messages: NewOutboxMessage[] = [];
  for (const subscription of state.subscriptions.values()) {
    if (subscription.event !== event.type) {
      continue;
    }
    if (subscription.version !== event.version) {
      continue;
    }
    if (subscription.broadcasterUserId !== event.broadcasterUserId) {
      continue;
    }
    const app = state.appByClientId(subscription.clientId);
    if (!app || !app.webhooksEnabled || app.webhookUrl === null) {
      continue;
    }
    const base: NewOutboxMessage = {
      messageId: createUlid(nowMs),
      subscriptionId: subscription.id,
      clientId: subscription.clientId,
      eventType: event.type,
      eventVersion: event.version,
      broadcasterUserId: event.broadcasterUserId,
      body,
      eventAtMs: nowMs,
      // Kick's queue running behind (`webhookQueueDelayMs`) holds every delivery; the live socket is not held.
      dueAtMs: nowMs + faults.delayMs + state.webhookQueueDelayMs,
      failedAttempts: 0,
    };
    messages.push(base);
    for (let i = 0; i < faults.duplicates; i++) {
      messages.push({ ...base });
    }
    if (faults.resendWithNewId) {
      messages.push({ ...base, messageId: createUlid(nowMs) });
    }
  }
  return messages;
}

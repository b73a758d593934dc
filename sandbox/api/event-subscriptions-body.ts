/**
 * Reading `POST /public/v1/events/subscriptions` bodies ([reference §3.11](../../docs/kick-wire-reference.md#311-event-subscriptions)) and writing Subscription objects.
 * Shape errors are 400s naming the field; an unknown event or version is not, because Kick reports those
 * per event in the result list.
 */
import type { KickEventSubscription } from '../../shared/kick/resources';
import { toRfc3339 } from '../../electron/core/clock';
import type { SandboxSubscription } from '../state';
import { fail } from './respond';

/** One requested event, as sent; whether it exists is decided per item. */
export interface RequestedEvent {
  name: string;
  version: number;
}

/** The only delivery method Kick has ([reference §3.11](../../docs/kick-wire-reference.md#311-event-subscriptions), [§5.1](../../docs/kick-wire-reference.md#51-configuration-and-delivery)). */
export const SUBSCRIPTION_METHOD = 'webhook';

/** `events` (required, non-empty) and `method` (required, `"webhook"`). */
export function readRequestedEvents(body: Record<string, unknown>): RequestedEvent[] {
  const method = body.method;
  if (method === undefined || method === null) {
    fail(400, `method: is required (only "${SUBSCRIPTION_METHOD}")`);
  }
  if (method !== SUBSCRIPTION_METHOD) {
    fail(400, `method: must be "${SUBSCRIPTION_METHOD}"`);
  }

  const events = body.events;
  if (events === undefined || events === null) {
    fail(400, 'events: is required');
  }
  if (!Array.isArray(events)) {
    fail(400, 'events: must be an array of {name, version}');
  }
  if (events.length === 0) {
    fail(400, 'events: must have at least 1 item(s)');
  }
  return events.map((item: unknown, i) => {
    const field = `events[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      fail(400, `${field}: must be an object with name and version`);
    }
    const { name, version } = item as { name?: unknown; version?: unknown };
    if (name === undefined || name === null) {
      fail(400, `${field}.name: is required`);
    }
    if (typeof name !== 'string') {
      fail(400, `${field}.name: must be a string`);
    }
    if (version === undefined || version === null) {
      fail(400, `${field}.version: is required`);
    }
    if (typeof version !== 'number' || !Number.isInteger(version)) {
      fail(400, `${field}.version: must be an integer`);
    }
    return { name, version };
  });
}

/** `broadcaster_user_id` for app tokens: required, a positive integer. */
export function readBroadcasterUserId(body: Record<string, unknown>): number {
  const value = body.broadcaster_user_id;
  if (value === undefined || value === null) {
    fail(400, 'broadcaster_user_id: is required with an app access token');
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    fail(400, 'broadcaster_user_id: must be a positive integer');
  }
  return value;
}

/** The Subscription object of [reference §3.11](../../docs/kick-wire-reference.md#311-event-subscriptions). */
export function toWireSubscription(subscription: SandboxSubscription): KickEventSubscription {
  return {
    id: subscription.id,
    app_id: subscription.appId,
    broadcaster_user_id: subscription.broadcasterUserId,
    event: subscription.event,
    version: subscription.version,
    method: SUBSCRIPTION_METHOD,
    created_at: toRfc3339(subscription.createdAtMs),
    updated_at: toRfc3339(subscription.updatedAtMs),
  };
}

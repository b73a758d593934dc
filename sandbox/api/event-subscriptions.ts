/**
 * Webhook event subscriptions on api.kick.com ([reference §3.11](../../docs/kick-wire-reference.md#311-event-subscriptions)): list, create and delete the token's app's
 * subscriptions. App tokens act for any broadcaster by id; user tokens (with `events:subscribe`) only for
 * their own user. Duplicates are created, not refused, as Kick does (KickDevDocs #246).
 */
import type { KickSubscribeResult } from '../../shared/kick/resources';
import { isKickEventType } from '../../shared/kick/scopes';
import { createUlid } from '../../electron/core/ids';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxAccessToken, SandboxState, SandboxSubscription } from '../state';
import { authenticate } from './auth-guard';
import {
  readBroadcasterUserId,
  readRequestedEvents,
  type RequestedEvent,
  toWireSubscription,
} from './event-subscriptions-body';
import { queryInt, queryStrings, readJsonObject } from './params';
import { fail, noContent, ok } from './respond';

export const SUBSCRIPTIONS_PATH = '/public/v1/events/subscriptions';
const SCOPES = ['events:subscribe'] as const;

/** Every event Kick documents is at version 1 ([reference §5.6](../../docs/kick-wire-reference.md#56-event-catalogue)). */
const SUPPORTED_VERSION = 1;

/** Registers list, create and delete. */
export function registerEventSubscriptionRoutes(router: Router, ctx: SandboxContext): void {
  const { state } = ctx;

  router.get(SUBSCRIPTIONS_PATH, (req) => {
    const token = authenticate(state, req, { token: 'any', anyScope: SCOPES });
    const broadcasterUserId = queryInt(req, 'broadcaster_user_id', { min: 1 });
    const visible = visibleSubscriptions(state, token).filter(
      (s) => broadcasterUserId === undefined || s.broadcasterUserId === broadcasterUserId,
    );
    return ok(visible.map(toWireSubscription));
  });

  router.post(SUBSCRIPTIONS_PATH, (req) => {
    const token = authenticate(state, req, { token: 'any', anyScope: SCOPES });
    const body = readJsonObject(req);
    const events = readRequestedEvents(body);
    let broadcasterUserId: number;
    if (token.kind === 'user' && token.userId !== null) {
      // A user token always subscribes for its own user; a `broadcaster_user_id` it sends is ignored.
      broadcasterUserId = token.userId;
    } else {
      broadcasterUserId = readBroadcasterUserId(body);
      if (!state.channels.has(broadcasterUserId)) {
        fail(400, 'broadcaster_user_id: channel not found');
      }
    }
    const app = state.appByClientId(token.clientId);
    if (!app) {
      fail(401);
    }
    const results = events.map((event) => subscribe(state, app.appId, token.clientId, broadcasterUserId, event));
    return ok(results);
  });

  router.delete(SUBSCRIPTIONS_PATH, (req) => {
    const token = authenticate(state, req, { token: 'any', anyScope: SCOPES });
    const ids = queryStrings(req, 'id').filter((id) => id.length > 0);
    if (ids.length === 0) {
      fail(400, 'id: is required (one or more subscription ids)');
    }
    const mine = new Set(visibleSubscriptions(state, token).map((s) => s.id));
    // Ids that are unknown, or not this token's to see, are skipped silently, as Kick answers 204 regardless.
    for (const id of ids) {
      if (mine.has(id)) {
        state.subscriptions.delete(id);
      }
    }
    return noContent();
  });
}

/**
 * The token's app's subscriptions, oldest first; a user token sees only those for its own broadcaster, so
 * one streamer's token cannot list or remove the app's subscriptions for another channel.
 */
function visibleSubscriptions(state: SandboxState, token: SandboxAccessToken): SandboxSubscription[] {
  return [...state.subscriptions.values()].filter(
    (s) => s.clientId === token.clientId && (token.kind === 'app' || s.broadcasterUserId === token.userId),
  );
}

/** One result item: a new subscription, or the reason this event could not be subscribed to. */
export function subscribe(
  state: SandboxState,
  appId: string,
  clientId: string,
  broadcasterUserId: number,
  event: RequestedEvent,
): KickSubscribeResult {
  const { name, version } = event;
  if (!isKickEventType(name)) {
    return { name, version, error: `unknown event type "${name}"` };
  }
  if (version !== SUPPORTED_VERSION) {
    return { name, version, error: `unsupported version ${version}: ${name} exists in version ${SUPPORTED_VERSION}` };
  }
  const now = state.now();
  const subscription: SandboxSubscription = {
    id: createUlid(now),
    appId,
    clientId,
    broadcasterUserId,
    event: name,
    version,
    createdAtMs: now,
    updatedAtMs: now,
  };
  state.subscriptions.set(subscription.id, subscription);
  return { name, version, subscription_id: subscription.id };
}

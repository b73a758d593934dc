/**
 * The channel a receiver test acts for: the sandbox streamer, whose payloads `samplePayloads()` builds, and
 * the subscription id `buildDelivery()` sends by default, as the reconciler would report them after a list.
 */
import { type ChannelGate, createChannelGate } from '../../../electron/webhooks/receive/channel-gate';
import { openHeldSubscriptionsFile } from '../../../electron/webhooks/subscriptions/held-subscriptions-file';
import { STREAMER_USER_ID } from '../../../sandbox/world';

/** `buildDelivery()`'s default `Kick-Event-Subscription-Id`. */
export const OWN_SUBSCRIPTION_ID = '01TESTSUBSCRIPT10N000000000';
export const OWN_BROADCASTER_ID = STREAMER_USER_ID;

/** A gate that has listed `ids` for the streamer in this run: anything else is judged at once. */
export function listedGate(ids: readonly string[] = [OWN_SUBSCRIPTION_ID]): ChannelGate {
  const gate = createChannelGate(null);
  gate.setOwner(OWN_BROADCASTER_ID);
  gate.reconcileStarted();
  gate.reconcileEnded(OWN_BROADCASTER_ID, ids);
  return gate;
}

/**
 * Leaves in `dataDir` what a run that held `ids` for the streamer saves, so a webhook service started there
 * acts on those subscriptions' deliveries at once (a restart of an install that has signed in before).
 */
export function saveHeld(dataDir: string, ids: readonly string[] = [OWN_SUBSCRIPTION_ID]): void {
  openHeldSubscriptionsFile(dataDir, { log: () => undefined, nowMs: Date.now }).save({
    broadcasterUserId: OWN_BROADCASTER_ID,
    subscriptionIds: [...ids],
  });
}

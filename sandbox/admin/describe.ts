/**
 * `GET /` of the admin API: the same description `npm run sandbox` prints first (so a tool can fetch it
 * from a running sandbox), plus counts of what the state holds.
 */
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { toRfc3339 } from '../../electron/core/clock';
import type { SandboxContext } from '../context';
import type { SandboxDescription } from '../index';
import { channelIdOf, chatroomIdOf } from '../live-socket/ids';
import { describeScenarios } from '../scenarios';
import type { DeliveryEngine } from '../webhooks/delivery';
import { STREAMER_USER_ID } from '../world';
import type { JobRunner } from './jobs';

/** Mirrors `Sandbox.describe()` in index.ts field for field; the admin test checks they stay equal. */
export function describeSandbox(ctx: SandboxContext): SandboxDescription {
  return {
    authUrl: ctx.urls.auth,
    apiUrl: ctx.urls.api,
    adminUrl: ctx.urls.admin,
    rtmpUrl: ctx.urls.rtmp,
    socketUrl: ctx.urls.socket,
    webUrl: ctx.urls.web,
    channelId: channelIdOf(STREAMER_USER_ID),
    chatroomId: chatroomIdOf(STREAMER_USER_ID),
    adminToken: ctx.adminToken,
    clientId: ctx.app.clientId,
    clientSecret: ctx.app.clientSecret,
    broadcasterUserId: STREAMER_USER_ID,
    redirectUris: [...ctx.app.redirectUris],
    publicKey: ctx.keys.publicKeyPem,
  };
}

/** How much of everything the sandbox holds right now. */
export function stateCounts(ctx: SandboxContext, delivery: DeliveryEngine, jobs: JobRunner): Record<string, number> {
  const { state } = ctx;
  const channels = [...state.channels.values()];
  const redemptions = [...state.redemptions.values()];
  const activeBans = [...state.bans.values()].filter((b) => state.activeBan(b.broadcasterUserId, b.userId));
  return {
    apps: state.apps.size,
    users: state.users.size,
    channels: channels.length,
    liveChannels: channels.filter((c) => c.isLive).length,
    categories: state.categories.size,
    chatMessages: state.chatMessages.size,
    follows: state.follows.size,
    bans: activeBans.length,
    rewards: [...state.rewards.values()].filter((r) => !r.deleted).length,
    redemptions: redemptions.length,
    pendingRedemptions: redemptions.filter((r) => r.status === 'pending').length,
    kicksGifts: state.kicksGifts.length,
    eventSubscriptions: state.subscriptions.size,
    accessTokens: state.accessTokens.size,
    pendingDeliveries: delivery.pendingCount(),
    deliveryAttempts: delivery.attempts.length,
    runningJobs: jobs.runningCount(),
  };
}

/** The whole `GET /` answer. */
export function describeForAdmin(
  ctx: SandboxContext,
  delivery: DeliveryEngine,
  jobs: JobRunner,
): Record<string, unknown> {
  return {
    ...describeSandbox(ctx),
    now: toRfc3339(ctx.state.now()),
    eventTypes: [...KICK_EVENT_TYPES],
    scenarios: describeScenarios(),
    counts: stateCounts(ctx, delivery, jobs),
  };
}

/**
 * What happens on kick.com rather than through the public API: a channel going live or offline, a viewer
 * redeeming a reward, a viewer chatting; and read-only views of a channel's chat (deleted messages too),
 * bans, rewards, redemptions and ads, for tests and end-to-end checks.
 */
import { toRfc3339 } from '../../electron/core/clock';
import { LIMITS } from '../../shared/limits';
import { bodyBool, bodyString } from '../api/params';
import type { SandboxContext } from '../context';
import { chatMessagePayload, emitEvent, metadataPayload, statusPayload } from '../events/payloads';
import type { Router } from '../http/router';
import type { SandboxRequest } from '../http/types';
import type { SandboxChannel, SandboxRedemption } from '../state';
import { adminFail, adminOk, adminRoute, bodyInt, pathInt, queryLimit, readAdminBody } from './admin-http';
import { activeViewers, requireChannel } from './generate-context';
import { storeViewerMessage } from './generate-chat';
import { ensureRedeemableReward, generateUserInput, redeemAsViewer } from './generate-redemption';
import { setChannelLive } from './generate-stream';
import { defaultRng, pick } from './random';

const CHAT_LIMIT_DEFAULT = 50;
const CHAT_LIMIT_MAX = 1000;
/** Kick does not publish a title limit for the live switch; the channel PATCH has none either. */
const TITLE_MAX = 200;

function channelOf(ctx: SandboxContext, req: SandboxRequest): SandboxChannel {
  return requireChannel(ctx.state, pathInt(req, 'id', 'broadcaster_user_id'), 'broadcaster_user_id', 404);
}

/** A random viewer who may act in the channel (the default actor of the viewer actions). */
function anyViewer(ctx: SandboxContext, channel: SandboxChannel): number {
  const viewers = activeViewers(ctx.state, channel.broadcasterUserId);
  if (viewers.length === 0) {
    adminFail(409, 'user_id: every viewer is banned in this channel; name one');
  }
  return pick(defaultRng, viewers);
}

function toAdminRedemption(redemption: SandboxRedemption): Record<string, unknown> {
  return {
    id: redemption.id,
    reward_id: redemption.rewardId,
    broadcaster_user_id: redemption.broadcasterUserId,
    redeemer_user_id: redemption.redeemerUserId,
    user_input: redemption.userInput,
    status: redemption.status,
    redeemed_at: toRfc3339(redemption.redeemedAtMs),
  };
}

function toAdminLive(channel: SandboxChannel, changed: boolean): Record<string, unknown> {
  return {
    changed,
    is_live: channel.isLive,
    title: channel.streamTitle,
    livestream_id: channel.livestreamId,
    viewer_count: channel.viewerCount,
    started_at: channel.startedAtMs === null ? null : toRfc3339(channel.startedAtMs),
    ended_at: channel.isLive || channel.endedAtMs === null ? null : toRfc3339(channel.endedAtMs),
  };
}

/** The actions: live switch, the ad-break limit, a viewer redeeming, a viewer chatting. */
function registerActions(router: Router, ctx: SandboxContext): void {
  const { state } = ctx;

  router.post(
    '/channels/:id/live',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const body = readAdminBody(req);
      const isLive = bodyBool(body, 'is_live');
      if (isLive === undefined) {
        adminFail(400, 'is_live: is required');
      }
      const title = bodyString(body, 'title', { minLength: 1, maxLength: TITLE_MAX });
      const retitled = title !== undefined && title !== channel.streamTitle;
      if (title !== undefined) {
        channel.streamTitle = title;
      }
      const changed = setChannelLive(state, channel, isLive, defaultRng);
      // Kick announces transitions only; a new title on an unchanged stream is a metadata update.
      if (changed) {
        emitEvent(state, 'livestream.status.updated', channel.broadcasterUserId, statusPayload(state, channel));
      } else if (retitled) {
        emitEvent(state, 'livestream.metadata.updated', channel.broadcasterUserId, metadataPayload(state, channel));
      }
      return adminOk(toAdminLive(channel, changed));
    }),
  );

  // Kick's ad-break limit is its own and unpublished; tests and benchmarks that run many breaks lift it here.
  router.patch(
    '/channels/:id/ads',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const body = readAdminBody(req);
      const limitMax = bodyInt(body, 'limit_max', { min: 0, max: 1_000_000 });
      const periodSeconds = bodyInt(body, 'limit_period_seconds', { min: 1, max: 31_536_000 });
      if (limitMax === undefined && periodSeconds === undefined) {
        adminFail(400, 'request body: send limit_max, limit_period_seconds or both');
      }
      const ads = state.adsFor(channel.broadcasterUserId);
      ads.limitMax = limitMax ?? ads.limitMax;
      ads.limitPeriodSeconds = periodSeconds ?? ads.limitPeriodSeconds;
      return adminOk({ limits: { max: ads.limitMax, period_seconds: ads.limitPeriodSeconds } });
    }),
  );

  router.post(
    '/channels/:id/redemptions',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const body = readAdminBody(req);
      const rewardId = bodyString(body, 'reward_id', { minLength: 1 });
      const userId = bodyInt(body, 'user_id', { min: 1 });
      const userInput = bodyString(body, 'user_input');
      const reward =
        rewardId ?? ensureRedeemableReward(state, channel.broadcasterUserId, ctx.app.clientId, defaultRng).id;
      const redeemer = userId ?? anyViewer(ctx, channel);
      const stored = state.rewards.get(reward);
      const redemption = redeemAsViewer(state, {
        broadcasterUserId: channel.broadcasterUserId,
        rewardId: reward,
        redeemerUserId: redeemer,
        userInput: userInput ?? (stored ? generateUserInput(defaultRng, stored) : ''),
      });
      return adminOk(toAdminRedemption(redemption), 201);
    }),
  );

  router.post(
    '/channels/:id/chat',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const body = readAdminBody(req);
      const content = bodyString(body, 'content', {
        required: true,
        minLength: 1,
        maxLength: LIMITS.chatContentMax,
        codePoints: true,
      });
      const userId = bodyInt(body, 'user_id', { min: 1 }) ?? anyViewer(ctx, channel);
      if (!state.user(userId)) {
        adminFail(400, `user_id: no user ${userId}`);
      }
      const replyTo = bodyString(body, 'reply_to', { minLength: 1 });
      const message = storeViewerMessage(state, {
        broadcasterUserId: channel.broadcasterUserId,
        senderUserId: userId,
        content,
        replyToMessageId: replyTo ?? null,
      });
      emitEvent(state, 'chat.message.sent', channel.broadcasterUserId, chatMessagePayload(state, message));
      return adminOk(
        { message_id: message.messageId, sender_user_id: userId, content, reply_to: message.replyToMessageId },
        201,
      );
    }),
  );
}

/** The read-only views. */
function registerViews(router: Router, ctx: SandboxContext): void {
  const { state } = ctx;

  router.get(
    '/channels/:id/chat',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const limit = queryLimit(req, CHAT_LIMIT_DEFAULT, CHAT_LIMIT_MAX);
      const messages = state.chatMessages.latest(limit, (m) => m.broadcasterUserId === channel.broadcasterUserId);
      return adminOk({
        messages: messages.map((m) => ({
          message_id: m.messageId,
          sender_user_id: m.senderUserId,
          sender_username: state.user(m.senderUserId)?.username ?? null,
          content: m.content,
          type: m.type,
          reply_to: m.replyToMessageId,
          created_at: toRfc3339(m.createdAtMs),
          deleted: m.deleted,
        })),
      });
    }),
  );

  router.get(
    '/channels/:id/bans',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const bans = [...state.bans.values()].filter(
        (b) => b.broadcasterUserId === channel.broadcasterUserId && state.activeBan(b.broadcasterUserId, b.userId),
      );
      return adminOk({
        bans: bans.map((b) => ({
          user_id: b.userId,
          username: state.user(b.userId)?.username ?? null,
          moderator_user_id: b.moderatorUserId,
          reason: b.reason,
          created_at: toRfc3339(b.createdAtMs),
          expires_at: b.expiresAtMs === null ? null : toRfc3339(b.expiresAtMs),
        })),
      });
    }),
  );

  router.get(
    '/channels/:id/rewards',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const rewards = [...state.rewards.values()].filter((r) => r.broadcasterUserId === channel.broadcasterUserId);
      return adminOk({
        rewards: rewards.map((r) => ({
          id: r.id,
          title: r.title,
          description: r.description,
          cost: r.cost,
          background_color: r.backgroundColor,
          is_enabled: r.isEnabled,
          is_paused: r.isPaused,
          is_user_input_required: r.isUserInputRequired,
          should_redemptions_skip_request_queue: r.shouldRedemptionsSkipRequestQueue,
          deleted: r.deleted,
          created_by_client_id: r.createdByClientId,
          created_at: toRfc3339(r.createdAtMs),
        })),
      });
    }),
  );

  router.get(
    '/channels/:id/redemptions',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const status = req.query.get('status');
      if (status !== null && !['pending', 'accepted', 'rejected'].includes(status)) {
        adminFail(400, 'status: must be one of pending, accepted, rejected');
      }
      const redemptions = [...state.redemptions.values()].filter(
        (r) => r.broadcasterUserId === channel.broadcasterUserId && (status === null || r.status === status),
      );
      return adminOk({ redemptions: redemptions.map(toAdminRedemption) });
    }),
  );

  router.get(
    '/channels/:id/ads',
    adminRoute((req) => {
      const channel = channelOf(ctx, req);
      const ads = state.adsFor(channel.broadcasterUserId);
      return adminOk({
        opted_in: ads.optedIn,
        ads_blocked: ads.adsBlocked,
        limits: { max: ads.limitMax, period_seconds: ads.limitPeriodSeconds },
        breaks: ads.breaks.map((b) => ({
          id: b.id,
          break_duration_seconds: b.breakDurationSeconds,
          created_at: toRfc3339(b.createdAtMs),
          source: b.source,
        })),
      });
    }),
  );
}

/** Registers the `/channels/:id/…` actions and views. */
export function registerChannelAdminRoutes(router: Router, ctx: SandboxContext): void {
  registerActions(router, ctx);
  registerViews(router, ctx);
}

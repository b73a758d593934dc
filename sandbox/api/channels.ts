/**
 * Channels ([reference §3.2](../../docs/kick-wire-reference.md#32-channels)): lookup by broadcaster id or slug (or the token user's own channel), and the
 * PATCH that changes title, category and custom tags, announcing `livestream.metadata.updated`.
 */
import type { KickChannel } from '../../shared/kick/resources';
import { LIMITS } from '../../shared/limits';
import { toRfc3339 } from '../../electron/core/clock';
import type { SandboxContext } from '../context';
import { emitEvent, metadataPayload } from '../events/payloads';
import type { Router } from '../http/router';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxAccessToken, SandboxChannel, SandboxState } from '../state';
import { authenticate } from './auth-guard';
import { categoryRef } from './categories';
import { bodyInt, bodyString, bodyStringArray, queryInts, queryStrings, readJsonObject } from './params';
import { fail, noContent, ok } from './respond';

/** Go's zero `time.Time`, which Kick serializes as `stream.start_time` for an offline channel ([§3.2](../../docs/kick-wire-reference.md#32-channels)). */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** Registers GET and PATCH `/public/v1/channels`. */
export function registerChannelRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/public/v1/channels', (req) => getChannels(ctx.state, req));
  router.patch('/public/v1/channels', (req) => patchChannel(ctx.state, req));
}

// --- GET ---

function getChannels(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const token = authenticate(state, req, { token: 'any', anyScope: ['channel:read'] });
  const ids = queryInts(req, 'broadcaster_user_id', { min: 1, maxItems: LIMITS.channelsLookupMax });
  const slugs = queryStrings(req, 'slug', {
    maxItems: LIMITS.channelsLookupMax,
    minLength: 1,
    maxLength: LIMITS.channelSlugLengthMax,
  });
  if (ids.length > 0 && slugs.length > 0) {
    fail(400, 'broadcaster_user_id and slug: use one or the other, not both');
  }

  let channels: (SandboxChannel | undefined)[];
  if (ids.length > 0) {
    channels = [...new Set(ids)].map((id) => state.channels.get(id));
  } else if (slugs.length > 0) {
    channels = [...new Set(slugs.map((s) => s.toLowerCase()))].map((slug) => state.channelBySlug(slug));
  } else {
    // Same rule as users: no filter means "mine", which an app token does not have (#277).
    if (token.userId === null) {
      fail(403, 'User not authenticated: give broadcaster_user_id or slug, or use a user access token');
    }
    channels = [state.channels.get(token.userId)];
  }
  const found = channels.filter((c): c is SandboxChannel => c !== undefined);
  return ok(found.map((channel) => toKickChannel(state, channel, token)));
}

/** The wire shape; `stream.url` and `stream.key` stay empty unless it is your own channel and you may read them. */
function toKickChannel(state: SandboxState, channel: SandboxChannel, token: SandboxAccessToken): KickChannel {
  const mayReadKey = token.userId === channel.broadcasterUserId && token.scopes.includes('streamkey:read');
  const live = channel.isLive && channel.startedAtMs !== null;
  return {
    broadcaster_user_id: channel.broadcasterUserId,
    slug: channel.slug,
    channel_description: channel.description,
    banner_picture: channel.bannerPicture,
    stream_title: channel.streamTitle,
    category: categoryRef(state, channel.categoryId),
    stream: {
      is_live: channel.isLive,
      is_mature: channel.isMature,
      language: channel.language,
      viewer_count: channel.isLive ? channel.viewerCount : 0,
      start_time: live ? toRfc3339(channel.startedAtMs ?? 0) : ZERO_TIME,
      thumbnail: channel.thumbnail,
      custom_tags: [...channel.customTags],
      url: mayReadKey ? channel.streamUrl : '',
      key: mayReadKey ? channel.streamKey : '',
    },
    active_subscribers_count: channel.activeSubscribers,
    canceled_subscribers_count: channel.canceledSubscribers,
  };
}

// --- PATCH ---

function patchChannel(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const token = authenticate(state, req, { token: 'user', anyScope: ['channel:write'] });
  const body = readJsonObject(req);
  const categoryId = bodyInt(body, 'category_id', { min: 1 });
  const title = bodyString(body, 'stream_title');
  const tags = bodyStringArray(body, 'custom_tags', {
    maxItems: LIMITS.customTagsMax,
    item: { minLength: 1, maxLength: LIMITS.customTagLengthMax },
  });
  if (categoryId === undefined && title === undefined && tags === undefined) {
    fail(400, 'at least one of category_id, stream_title, custom_tags is required');
  }
  if (categoryId !== undefined && !state.categories.has(categoryId)) {
    fail(400, `category_id: category ${categoryId} not found`);
  }
  const channel = state.channels.get(token.userId);
  if (!channel) {
    fail(400, 'Channel not found');
  }

  // Everything is validated before anything changes, so a 400 never leaves a half-applied update.
  const metadataChanged =
    (categoryId !== undefined && categoryId !== channel.categoryId) ||
    (title !== undefined && title !== channel.streamTitle);
  if (categoryId !== undefined) {
    moveCategory(state, channel, categoryId);
  }
  if (title !== undefined) {
    channel.streamTitle = title;
  }
  if (tags !== undefined) {
    channel.customTags = [...tags];
  }

  // The metadata event carries title, language, mature flag and category only ([reference §5.6](../../docs/kick-wire-reference.md#56-event-catalogue), [§5.8](../../docs/kick-wire-reference.md#58-payloads-v1-field-by-field)):
  // a tags-only or no-op update announces nothing.
  if (metadataChanged) {
    emitEvent(state, 'livestream.metadata.updated', channel.broadcasterUserId, metadataPayload(state, channel));
  }
  return noContent();
}

/**
 * Sets the channel's category. A live channel takes its viewers along: the sandbox keeps each category's
 * `viewerCount` equal to the viewers of its live streams (world.ts and the admin triggers do the same).
 */
function moveCategory(state: SandboxState, channel: SandboxChannel, categoryId: number): void {
  const from = state.categories.get(channel.categoryId);
  const to = state.categories.get(categoryId);
  if (channel.isLive && from && from !== to) {
    from.viewerCount = Math.max(0, from.viewerCount - channel.viewerCount);
    if (to) {
      to.viewerCount += channel.viewerCount;
    }
  }
  channel.categoryId = categoryId;
}

/**
 * Livestream listings ([reference §3.3](../../docs/kick-wire-reference.md#33-livestreams)): v2 with cursor pagination, the per-user lookup, the deprecated v1
 * listing and the platform-wide stats. Any live token works; no scope is needed.
 */
import type { KickLivestreamV1, KickLivestreamV2 } from '../../shared/kick/resources';
import { LIMITS } from '../../shared/limits';
import { toRfc3339 } from '../../electron/core/clock';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxChannel, SandboxState } from '../state';
import { authenticate } from './auth-guard';
import { categoryRef } from './categories';
import { queryInt, queryInts, queryStrings } from './params';
import { fail, ok, paged } from './respond';

/** The deprecated v1 listing's sort orders; the seed names `viewer_count` as the default. */
const V1_SORTS = ['viewer_count', 'started_at'] as const;

/** Registers every livestream route. */
export function registerLivestreamRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/public/v2/livestreams', (req) => {
    authenticate(ctx.state, req, { token: 'any' });
    return listLivestreamsV2(ctx.state, req);
  });

  router.get('/public/v1/users/livestreams', (req) => {
    authenticate(ctx.state, req, { token: 'any' });
    const ids = queryInts(req, 'user_id', { min: 1, maxItems: LIMITS.userLivestreamsUserIdsMax });
    if (ids.length < LIMITS.userLivestreamsUserIdsMin) {
      fail(
        400,
        `user_id: is required (${LIMITS.userLivestreamsUserIdsMin} to ${LIMITS.userLivestreamsUserIdsMax} values)`,
      );
    }
    const live = unique(ids)
      .map((id) => ctx.state.channels.get(id))
      .filter((channel): channel is SandboxChannel => channel?.isLive === true);
    return ok(live.map((channel) => livestreamV2(ctx.state, channel)));
  });

  router.get('/public/v1/livestreams', (req) => {
    authenticate(ctx.state, req, { token: 'any' });
    return listLivestreamsV1(ctx.state, req);
  });

  router.get('/public/v1/livestreams/stats', (req) => {
    authenticate(ctx.state, req, { token: 'any' });
    return ok({ total_count: liveChannels(ctx.state).length });
  });
}

// --- v2 ---

function listLivestreamsV2(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const categoryIds = queryInts(req, 'category_id', { min: 1, maxItems: LIMITS.livestreamsV2CategoryIdsMax });
  const languages = queryStrings(req, 'language_code', {
    maxItems: LIMITS.livestreamsV2LanguageCodesMax,
    minLength: 1,
  }).map((code) => code.toLowerCase());
  const limit =
    queryInt(req, 'limit', { min: LIMITS.livestreamsV2LimitMin, max: LIMITS.livestreamsV2LimitMax }) ??
    LIMITS.livestreamsV2LimitDefault;
  const after = decodeCursor(req.query.get('cursor'));

  // Oldest to newest by start time ([reference §3.3](../../docs/kick-wire-reference.md#33-livestreams) [ONE], [seed §4.2](../../docs/product-spec.md#42-logical-operations)); the user id breaks ties so the
  // order, and therefore the cursor, is total.
  const matches = liveChannels(state)
    .filter((c) => categoryIds.length === 0 || categoryIds.includes(c.categoryId))
    .filter((c) => languages.length === 0 || languages.includes(c.language.toLowerCase()))
    .sort(byStartThenId);
  const rest = after === null ? matches : matches.filter((c) => byStartThenId(c, after) > 0);
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rest.length > limit && last ? encodeCursor(last) : null;
  return paged(
    page.map((channel) => livestreamV2(state, channel)),
    nextCursor,
  );
}

/** A live channel as a `LivestreamV2` item (v2 listing and the per-user lookup). */
function livestreamV2(state: SandboxState, channel: SandboxChannel): KickLivestreamV2 {
  const user = state.user(channel.broadcasterUserId);
  return {
    id: channel.livestreamId ?? '',
    title: channel.streamTitle,
    thumbnail: channel.thumbnail,
    started_at: toRfc3339(channel.startedAtMs ?? state.now()),
    viewer_count: channel.viewerCount,
    language_code: channel.language,
    tags: [...channel.customTags],
    has_mature_content: channel.isMature,
    broadcaster_user: {
      id: channel.broadcasterUserId,
      username: user?.username ?? channel.slug,
      profile_picture: user?.profilePicture ?? '',
    },
    category: categoryRef(state, channel.categoryId),
    channel: { slug: channel.slug },
  };
}

// --- v1 (deprecated) ---

function listLivestreamsV1(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const broadcasterIds = queryInts(req, 'broadcaster_user_id', {
    min: 1,
    maxItems: LIMITS.livestreamsV1BroadcasterIdsMax,
  });
  const categoryId = queryInt(req, 'category_id', { min: 1 });
  const language = req.query.get('language')?.toLowerCase() || undefined;
  const limit =
    queryInt(req, 'limit', { min: LIMITS.livestreamsV1LimitMin, max: LIMITS.livestreamsV1LimitMax }) ??
    LIMITS.livestreamsV1LimitDefault;
  const sort = req.query.get('sort') || 'viewer_count';
  if (!(V1_SORTS as readonly string[]).includes(sort)) {
    fail(400, `sort: must be one of ${V1_SORTS.join(', ')}`);
  }

  const matches = liveChannels(state)
    .filter((c) => broadcasterIds.length === 0 || broadcasterIds.includes(c.broadcasterUserId))
    .filter((c) => categoryId === undefined || c.categoryId === categoryId)
    .filter((c) => language === undefined || c.language.toLowerCase() === language)
    // Both orders put the most relevant first: most viewers, or most recently started.
    .sort((a, b) =>
      sort === 'viewer_count'
        ? b.viewerCount - a.viewerCount || a.broadcasterUserId - b.broadcasterUserId
        : -byStartThenId(a, b),
    );
  return ok(matches.slice(0, limit).map((channel) => livestreamV1(state, channel)));
}

function livestreamV1(state: SandboxState, channel: SandboxChannel): KickLivestreamV1 {
  return {
    broadcaster_user_id: channel.broadcasterUserId,
    // The sandbox gives each user exactly one channel and no separate channel id, so they coincide.
    channel_id: channel.broadcasterUserId,
    slug: channel.slug,
    stream_title: channel.streamTitle,
    language: channel.language,
    has_mature_content: channel.isMature,
    viewer_count: channel.viewerCount,
    thumbnail: channel.thumbnail,
    started_at: toRfc3339(channel.startedAtMs ?? state.now()),
    category: categoryRef(state, channel.categoryId),
    custom_tags: [...channel.customTags],
    profile_picture: state.user(channel.broadcasterUserId)?.profilePicture ?? '',
  };
}

// --- Helpers ---

function liveChannels(state: SandboxState): SandboxChannel[] {
  return [...state.channels.values()].filter((c) => c.isLive);
}

interface StartKey {
  startedAtMs: number | null;
  broadcasterUserId: number;
}

function byStartThenId(a: StartKey, b: StartKey): number {
  return (a.startedAtMs ?? 0) - (b.startedAtMs ?? 0) || a.broadcasterUserId - b.broadcasterUserId;
}

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}

/**
 * Opaque to clients: base64url of `<start ms>.<user id>` of the last item served. Keyset pagination, so
 * a stream that starts or ends between two requests never makes a page repeat or skip another stream.
 */
function encodeCursor(last: StartKey): string {
  return Buffer.from(`${last.startedAtMs ?? 0}.${last.broadcasterUserId}`, 'utf8').toString('base64url');
}

function decodeCursor(raw: string | null): StartKey | null {
  if (raw === null || raw === '') {
    return null;
  }
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!match || !/^[A-Za-z0-9_-]+$/.test(raw)) {
    fail(400, 'cursor: invalid cursor');
  }
  return { startedAtMs: Number(match[1]), broadcasterUserId: Number(match[2]) };
}

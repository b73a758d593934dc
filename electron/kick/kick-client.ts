/**
 * Greenroom's Kick API client: one typed method per seed operation ([reference §8](../../docs/kick-wire-reference.md#8-seed-operations-vs-the-real-api)), each validated against
 * Kick's limits before anything is sent. Returns Kick's wire shapes unchanged; an empty `data` is an empty
 * result, never an error (unlike kickcom.py).
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_REWARD_COLOUR, HEX_COLOUR, LIMITS } from '../../shared/limits';
import type {
  KickAdBreakCreated,
  KickAdBreakStatus,
  KickCategory,
  KickChannel,
  KickChatMessageType,
  KickChatSendResult,
  KickEventSubscription,
  KickLeaderboard,
  KickLivestreamStats,
  KickLivestreamV1,
  KickLivestreamV2,
  KickRedemptionFailure,
  KickRedemptionGroup,
  KickRedemptionStatus,
  KickReward,
  KickSubscribeResult,
  KickUser,
  Page,
} from '../../shared/kick/resources';
import { isKickEventType } from '../../shared/kick/scopes';
import { Checks } from './checks';
import type { KickApiCore } from './kick-api-core';
import { toPage, walkPages } from './paging';
import { WIRE_ASSUMPTIONS } from './wire-assumptions';

const BCP47 = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const positiveId = (c: Checks) => (v: unknown, name: string) => c.int(name, v, { min: 1 });
const nonEmpty = (c: Checks) => (v: unknown, name: string) => c.string(name, v, { min: 1 });

export interface RewardFields {
  title?: string;
  cost?: number;
  description?: string;
  backgroundColor?: string;
  isEnabled?: boolean;
  isUserInputRequired?: boolean;
  shouldRedemptionsSkipRequestQueue?: boolean;
}

export class KickClient {
  readonly #core: KickApiCore;

  constructor(core: KickApiCore) {
    this.#core = core;
  }

  // --- Users and channels ---

  /** fetch_user: one user by id, or null when Kick has none. */
  async fetchUser(userId: number): Promise<KickUser | null> {
    new Checks('fetchUser').int('user_id', userId, { min: 1 });
    const data = (await this.#core.data('fetchUser', { query: [['id', String(userId)]] })) as KickUser[];
    return data[0] ?? null;
  }

  /** The signed-in user (no `id`: Kick answers with the token's own user). */
  async fetchCurrentUser(): Promise<KickUser | null> {
    const data = (await this.#core.data('fetchUser')) as KickUser[];
    return data[0] ?? null;
  }

  /** fetch_channel: by broadcaster user id or slug (never both), or the signed-in user's channel with neither. */
  async fetchChannel(input: { userId?: number; slug?: string } = {}): Promise<KickChannel | null> {
    const c = new Checks('fetchChannel');
    if (input.userId !== undefined && input.slug !== undefined) {
      c.fail('user_id, slug', 'give one of them, not both');
    }
    const query: [string, string][] = [];
    if (input.userId !== undefined) {
      query.push(['broadcaster_user_id', String(c.int('user_id', input.userId, { min: 1 }))]);
    }
    if (input.slug !== undefined) {
      query.push(['slug', c.string('slug', input.slug, { min: 1, max: LIMITS.channelSlugLengthMax })]);
    }
    const data = (await this.#core.data('fetchChannel', { query })) as KickChannel[];
    return data[0] ?? null;
  }

  /** update_channel: at least one of category, title and tags (≤10). */
  async updateChannel(input: { categoryId?: number; streamTitle?: string; customTags?: string[] }): Promise<void> {
    const c = new Checks('updateChannel');
    const body: Record<string, unknown> = {};
    if (input.categoryId !== undefined) {
      body.category_id = c.int('category_id', input.categoryId, { min: 1 });
    }
    if (input.streamTitle !== undefined) {
      body.stream_title = c.string('stream_title', input.streamTitle, { min: 1 });
    }
    if (input.customTags !== undefined) {
      body.custom_tags = c.list('custom_tags', input.customTags, { max: LIMITS.customTagsMax, unique: true }, (v, n) =>
        c.string(n, v, { min: 1, max: LIMITS.customTagLengthMax }),
      );
    }
    if (Object.keys(body).length === 0) {
      c.fail('category_id, stream_title, custom_tags', 'give at least one to update');
    }
    await this.#core.call('updateChannel', { json: body });
  }

  // --- Livestreams ---

  /** fetch_livestreams_v2: one page, oldest first. */
  async fetchLivestreamsV2(
    input: { categoryIds?: number[]; languageCodes?: string[]; limit?: number; cursor?: string } = {},
  ): Promise<Page<KickLivestreamV2>> {
    const c = new Checks('fetchLivestreamsV2');
    const query: [string, string][] = [];
    for (const id of c.list(
      'category_ids',
      input.categoryIds ?? [],
      { max: LIMITS.livestreamsV2CategoryIdsMax },
      positiveId(c),
    )) {
      query.push(['category_id', String(id)]);
    }
    for (const code of c.list(
      'language_codes',
      input.languageCodes ?? [],
      { max: LIMITS.livestreamsV2LanguageCodesMax },
      (v, n) => c.string(n, v, { pattern: BCP47, hint: 'a BCP 47 language code such as en' }),
    )) {
      query.push(['language_code', code]);
    }
    const limit = c.optionalInt('limit', input.limit, {
      min: LIMITS.livestreamsV2LimitMin,
      max: LIMITS.livestreamsV2LimitMax,
    });
    if (limit !== undefined) {
      query.push(['limit', String(limit)]);
    }
    if (input.cursor !== undefined) {
      query.push(['cursor', c.string('cursor', input.cursor, { min: 1 })]);
    }
    return toPage('fetchLivestreamsV2', await this.#core.call('fetchLivestreamsV2', { query }));
  }

  /** Every live stream matching the filters, across pages. */
  iterateLivestreamsV2(
    input: { categoryIds?: number[]; languageCodes?: string[]; limit?: number } = {},
  ): AsyncGenerator<KickLivestreamV2> {
    return walkPages((cursor) => this.fetchLivestreamsV2({ ...input, cursor }));
  }

  /** fetch_user_livestreams: the live ones among 1–100 broadcasters (not-live users are absent). */
  async fetchUserLivestreams(userIds: number | number[]): Promise<KickLivestreamV2[]> {
    const c = new Checks('fetchUserLivestreams');
    const ids = c.oneOrMany(
      'user_ids',
      userIds,
      { min: LIMITS.userLivestreamsUserIdsMin, max: LIMITS.userLivestreamsUserIdsMax, unique: true },
      positiveId(c),
    );
    const query = ids.map((id): [string, string] => [WIRE_ASSUMPTIONS.userLivestreamsParam, String(id)]);
    return (await this.#core.data('fetchUserLivestreams', { query })) as KickLivestreamV2[];
  }

  async fetchLivestreamStats(): Promise<KickLivestreamStats> {
    return (await this.#core.data('fetchLivestreamStats')) as KickLivestreamStats;
  }

  /** fetch_livestream (deprecated v1): the broadcaster's stream, or null when not live. */
  async fetchLivestream(broadcasterUserId: number): Promise<KickLivestreamV1 | null> {
    new Checks('fetchLivestream').int('broadcaster_user_id', broadcasterUserId, { min: 1 });
    const data = (await this.#core.data('fetchLivestream', {
      query: [['broadcaster_user_id', String(broadcasterUserId)]],
    })) as KickLivestreamV1[];
    return data[0] ?? null;
  }

  /** fetch_livestreams (deprecated v1). */
  async fetchLivestreams(
    input: {
      broadcasterUserIds?: number | number[];
      categoryId?: number;
      language?: string;
      limit?: number;
      sort?: 'viewer_count' | 'started_at';
    } = {},
  ): Promise<KickLivestreamV1[]> {
    const c = new Checks('fetchLivestreams');
    const query: [string, string][] = [];
    if (input.broadcasterUserIds !== undefined) {
      for (const id of c.oneOrMany(
        'broadcaster_user_id',
        input.broadcasterUserIds,
        { max: LIMITS.livestreamsV1BroadcasterIdsMax },
        positiveId(c),
      )) {
        query.push(['broadcaster_user_id', String(id)]);
      }
    }
    if (input.categoryId !== undefined) {
      query.push(['category_id', String(c.int('category_id', input.categoryId, { min: 1 }))]);
    }
    if (input.language !== undefined) {
      query.push([
        'language',
        c.string('language', input.language, { pattern: BCP47, hint: 'a language code such as en' }),
      ]);
    }
    const limit = c.optionalInt('limit', input.limit, {
      min: LIMITS.livestreamsV1LimitMin,
      max: LIMITS.livestreamsV1LimitMax,
    });
    if (limit !== undefined) {
      query.push(['limit', String(limit)]);
    }
    if (input.sort !== undefined) {
      if (input.sort !== 'viewer_count' && input.sort !== 'started_at') {
        c.fail('sort', 'must be viewer_count or started_at');
      }
      query.push(['sort', input.sort]);
    }
    return (await this.#core.data('fetchLivestreams', { query })) as KickLivestreamV1[];
  }

  // --- Categories ---

  /** fetch_categories (v2): `query` is shorthand for one name. */
  async fetchCategories(
    input: {
      query?: string;
      names?: string[];
      tags?: string[];
      categoryIds?: number[];
      limit?: number;
      cursor?: string;
    } = {},
  ): Promise<Page<KickCategory>> {
    const c = new Checks('fetchCategories');
    const names = c.list(
      'name',
      [...(input.query !== undefined ? [input.query] : []), ...(input.names ?? [])],
      {},
      (v, n) => c.string(n, v, { min: 1 }),
    );
    const tags = c.list('tag', input.tags ?? [], {}, nonEmpty(c));
    const ids = c.list('category_id', input.categoryIds ?? [], {}, positiveId(c));
    const query: [string, string][] = [];
    const add = (key: string, values: (string | number)[]): void => {
      if (values.length === 0) {
        return;
      }
      if (WIRE_ASSUMPTIONS.categoriesArrayEncoding === 'comma') {
        query.push([key, values.join(',')]);
      } else {
        for (const v of values) {
          query.push([key, String(v)]);
        }
      }
    };
    add('name', names);
    add('tag', tags);
    add('id', ids);
    const limit = c.optionalInt('limit', input.limit, {
      min: LIMITS.categoriesLimitMin,
      max: LIMITS.categoriesLimitMax,
    });
    if (limit !== undefined) {
      query.push(['limit', String(limit)]);
    }
    if (input.cursor !== undefined) {
      query.push(['cursor', c.string('cursor', input.cursor, { min: 1 })]);
    }
    return toPage('fetchCategories', await this.#core.call('fetchCategories', { query }));
  }

  iterateCategories(
    input: { query?: string; names?: string[]; tags?: string[]; categoryIds?: number[]; limit?: number } = {},
  ): AsyncGenerator<KickCategory> {
    return walkPages((cursor) => this.fetchCategories({ ...input, cursor }));
  }

  // --- Chat and moderation ---

  /** send_chat_message: ≤500 characters; `user` messages need the broadcaster id. */
  async sendChatMessage(input: {
    content: string;
    type?: KickChatMessageType;
    broadcasterUserId?: number;
    replyToMessageId?: string;
  }): Promise<KickChatSendResult> {
    const c = new Checks('sendChatMessage');
    const type = input.type ?? 'bot';
    if (type !== 'bot' && type !== 'user') {
      c.fail('type', 'must be user or bot');
    }
    const body: Record<string, unknown> = {
      type,
      content: c.string('content', input.content, { min: 1, max: LIMITS.chatContentMax, codePoints: true }),
    };
    if (type === 'user') {
      if (input.broadcasterUserId === undefined) {
        c.fail('broadcaster_user_id', 'is required when type is user');
      }
      body.broadcaster_user_id = c.int('broadcaster_user_id', input.broadcasterUserId, { min: 1 });
    }
    if (input.replyToMessageId !== undefined) {
      body.reply_to_message_id = c.string('reply_to_message_id', input.replyToMessageId, { min: 1 });
    }
    return (await this.#core.data('sendChatMessage', { json: body })) as KickChatSendResult;
  }

  async deleteChatMessage(messageId: string): Promise<void> {
    new Checks('deleteChatMessage').string('message_id', messageId, { min: 1 });
    await this.#core.call('deleteChatMessage', { pathParams: { message_id: messageId } });
  }

  /** ban_user: without `duration` a permanent ban; with it a timeout of 1–10080 minutes. */
  async banUser(input: {
    broadcasterUserId: number;
    userId: number;
    duration?: number;
    reason?: string;
  }): Promise<void> {
    const c = new Checks('banUser');
    const body: Record<string, unknown> = {
      broadcaster_user_id: c.int('broadcaster_user_id', input.broadcasterUserId, { min: 1 }),
      user_id: c.int('user_id', input.userId, { min: 1 }),
    };
    const duration = c.optionalInt('duration', input.duration, {
      min: LIMITS.banDurationMinutesMin,
      max: LIMITS.banDurationMinutesMax,
    });
    if (duration !== undefined) {
      body.duration = duration;
    }
    const reason = c.optionalString('reason', input.reason, { max: LIMITS.banReasonMax });
    if (reason !== undefined && reason.length > 0) {
      body.reason = reason;
    }
    await this.#core.call('banUser', { json: body });
  }

  /** unban_user: also lifts a timeout. Kick takes the ids in a JSON body on DELETE. */
  async unbanUser(input: { broadcasterUserId: number; userId: number }): Promise<void> {
    const c = new Checks('unbanUser');
    const body = {
      broadcaster_user_id: c.int('broadcaster_user_id', input.broadcasterUserId, { min: 1 }),
      user_id: c.int('user_id', input.userId, { min: 1 }),
    };
    await this.#core.call('unbanUser', { json: body });
  }

  // --- Rewards and redemptions ---

  async fetchChannelRewards(): Promise<KickReward[]> {
    return (await this.#core.data('fetchChannelRewards')) as KickReward[];
  }

  async createChannelReward(input: RewardFields & { title: string; cost: number }): Promise<KickReward> {
    const body = rewardBody('createChannelReward', input, true);
    return (await this.#core.data('createChannelReward', { json: body })) as KickReward;
  }

  /** update_channel_reward: only the app that created the reward may update it. */
  async updateChannelReward(rewardId: string, input: RewardFields & { isPaused?: boolean }): Promise<KickReward> {
    const c = new Checks('updateChannelReward');
    c.string('reward_id', rewardId, { min: 1 });
    const body = rewardBody('updateChannelReward', input, false);
    const paused = c.bool('is_paused', input.isPaused);
    if (paused !== undefined) {
      body.is_paused = paused;
    }
    if (Object.keys(body).length === 0) {
      c.fail('reward', 'give at least one field to update');
    }
    return (await this.#core.data('updateChannelReward', {
      json: body,
      pathParams: { reward_id: rewardId },
    })) as KickReward;
  }

  async deleteChannelReward(rewardId: string): Promise<void> {
    new Checks('deleteChannelReward').string('reward_id', rewardId, { min: 1 });
    await this.#core.call('deleteChannelReward', { pathParams: { reward_id: rewardId } });
  }

  /** fetch_reward_redemptions: grouped by reward; `ids` cannot be combined with the other filters. */
  async fetchRewardRedemptions(
    input: { rewardId?: string; status?: KickRedemptionStatus; ids?: string[]; cursor?: string } = {},
  ): Promise<Page<KickRedemptionGroup>> {
    const c = new Checks('fetchRewardRedemptions');
    const query: [string, string][] = [];
    if (input.ids !== undefined) {
      if (input.rewardId !== undefined || input.status !== undefined) {
        c.fail('ids', 'cannot be combined with reward_id or status');
      }
      for (const id of c.list(
        'ids',
        input.ids,
        { min: 1, max: LIMITS.redemptionIdFilterMax, unique: true },
        nonEmpty(c),
      )) {
        query.push(['id', id]);
      }
    }
    if (input.rewardId !== undefined) {
      query.push(['reward_id', c.string('reward_id', input.rewardId, { min: 1 })]);
    }
    if (input.status !== undefined) {
      if (!['pending', 'accepted', 'rejected'].includes(input.status)) {
        c.fail('status', 'must be pending, accepted or rejected');
      }
      query.push(['status', input.status]);
    }
    if (input.cursor !== undefined) {
      query.push(['cursor', c.string('cursor', input.cursor, { min: 1 })]);
    }
    return toPage('fetchRewardRedemptions', await this.#core.call('fetchRewardRedemptions', { query }));
  }

  iterateRewardRedemptions(
    input: { rewardId?: string; status?: KickRedemptionStatus; ids?: string[] } = {},
  ): AsyncGenerator<KickRedemptionGroup> {
    return walkPages((cursor) => this.fetchRewardRedemptions({ ...input, cursor }));
  }

  /** accept_reward_redemptions: 1–25 unique ids; returns only the failures (empty when all succeeded). */
  acceptRewardRedemptions(ids: string[]): Promise<KickRedemptionFailure[]> {
    return this.#decideRedemptions('acceptRewardRedemptions', ids);
  }

  rejectRewardRedemptions(ids: string[]): Promise<KickRedemptionFailure[]> {
    return this.#decideRedemptions('rejectRewardRedemptions', ids);
  }

  async #decideRedemptions(
    op: 'acceptRewardRedemptions' | 'rejectRewardRedemptions',
    ids: string[],
  ): Promise<KickRedemptionFailure[]> {
    const c = new Checks(op);
    const list = c.list(
      'ids',
      ids,
      { min: LIMITS.redemptionIdsPerActionMin, max: LIMITS.redemptionIdsPerActionMax, unique: true },
      nonEmpty(c),
    );
    return (await this.#core.data(op, { json: { ids: list } })) as KickRedemptionFailure[];
  }

  // --- KICKs and ads ---

  async fetchKicksLeaderboard(top: number = LIMITS.leaderboardTopDefault): Promise<KickLeaderboard> {
    new Checks('fetchKicksLeaderboard').int('top', top, {
      min: LIMITS.leaderboardTopMin,
      max: LIMITS.leaderboardTopMax,
    });
    return (await this.#core.data('fetchKicksLeaderboard', { query: [['top', String(top)]] })) as KickLeaderboard;
  }

  async fetchAdBreakStatus(): Promise<KickAdBreakStatus> {
    return (await this.#core.data('fetchAdBreakStatus')) as KickAdBreakStatus;
  }

  /**
   * create_ad_break: 7–300 s. The id is generated when omitted and reused on every retry, so a retried
   * request cannot start a second break.
   */
  async createAdBreak(input: { breakDurationSeconds: number; adBreakId?: string }): Promise<KickAdBreakCreated> {
    const c = new Checks('createAdBreak');
    const seconds = c.int('break_duration_seconds', input.breakDurationSeconds, {
      min: LIMITS.adBreakSecondsMin,
      max: LIMITS.adBreakSecondsMax,
    });
    const id =
      input.adBreakId === undefined
        ? randomUUID()
        : c.string('ad_break_id', input.adBreakId, { pattern: UUID, hint: 'a UUID' });
    const { createIdField, createDurationField } = WIRE_ASSUMPTIONS.ads;
    return (await this.#core.data('createAdBreak', {
      json: { [createIdField]: id, [createDurationField]: seconds },
      hasIdempotencyKey: true,
    })) as KickAdBreakCreated;
  }

  async enrollInAds(): Promise<void> {
    await this.#core.call('enrollInAds');
  }

  // --- Event subscriptions ---

  async fetchEventsSubscriptions(input: { broadcasterUserId?: number } = {}): Promise<KickEventSubscription[]> {
    const query: [string, string][] = [];
    if (input.broadcasterUserId !== undefined) {
      query.push([
        'broadcaster_user_id',
        String(new Checks('fetchEventsSubscriptions').int('broadcaster_user_id', input.broadcasterUserId, { min: 1 })),
      ]);
    }
    return (await this.#core.data('fetchEventsSubscriptions', { query })) as KickEventSubscription[];
  }

  /** subscribe_to_event: the created subscription, or null when Kick did not create it. */
  async subscribeToEvent(input: { eventType: string; userId: number }): Promise<KickSubscribeResult | null> {
    const [result] = await this.subscribeToEvents({ eventTypes: [input.eventType], userId: input.userId });
    return result?.subscription_id ? result : null;
  }

  /** Several event types in one request; each result says whether that one was created. */
  async subscribeToEvents(input: { eventTypes: string[]; userId: number }): Promise<KickSubscribeResult[]> {
    const c = new Checks('subscribeToEvent');
    const types = c.list('event_type', input.eventTypes, { min: 1, unique: true }, (v, n) => {
      const type = c.string(n, v, { min: 1 });
      if (!isKickEventType(type)) {
        c.fail(n, `must be one of Kick's event types (got ${type})`);
      }
      return type;
    });
    const body = {
      events: types.map((name) => ({ name, version: 1 })),
      method: 'webhook',
      broadcaster_user_id: c.int('user_id', input.userId, { min: 1 }),
    };
    return (await this.#core.data('subscribeToEvent', { json: body })) as KickSubscribeResult[];
  }

  async unsubscribeFromEvent(subscriptionIds: string | string[]): Promise<void> {
    const c = new Checks('unsubscribeFromEvent');
    const ids = c.oneOrMany('subscription_id', subscriptionIds, { min: 1, unique: true }, nonEmpty(c));
    await this.#core.call('unsubscribeFromEvent', { query: ids.map((id): [string, string] => ['id', id]) });
  }

  // --- Keys ---

  /** The PEM public key Kick signs webhooks with (no token needed). */
  async fetchPublicKey(): Promise<string> {
    const data = (await this.#core.data('fetchPublicKey')) as { public_key?: unknown } | undefined;
    if (typeof data?.public_key !== 'string' || !data.public_key.includes('PUBLIC KEY')) {
      throw new Error('fetchPublicKey: Kick answered without a PEM public key');
    }
    return data.public_key;
  }
}

function rewardBody(op: string, input: RewardFields, creating: boolean): Record<string, unknown> {
  const c = new Checks(op);
  const body: Record<string, unknown> = {};
  if (creating || input.title !== undefined) {
    body.title = c.string('title', input.title, { min: 1, max: LIMITS.rewardTitleMax });
  }
  if (creating || input.cost !== undefined) {
    body.cost = c.int('cost', input.cost, { min: LIMITS.rewardCostMin });
  }
  if (input.description !== undefined) {
    body.description = c.string('description', input.description, { max: LIMITS.rewardDescriptionMax });
  }
  if (input.backgroundColor !== undefined) {
    body.background_color = c.string('background_color', input.backgroundColor, {
      pattern: HEX_COLOUR,
      hint: `a hex colour such as ${DEFAULT_REWARD_COLOUR}`,
    });
  }
  const flags = [
    ['is_enabled', input.isEnabled],
    ['is_user_input_required', input.isUserInputRequired],
    ['should_redemptions_skip_request_queue', input.shouldRedemptionsSkipRequestQueue],
  ] as const;
  for (const [field, value] of flags) {
    const flag = c.bool(field, value);
    if (flag !== undefined) {
      body[field] = flag;
    }
  }
  return body;
}

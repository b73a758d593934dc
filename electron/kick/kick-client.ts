/**
 * Greenroom's Kick API client: one typed method per seed operation ([reference §8](../../docs/kick-wire-reference.md#8-seed-operations-vs-the-real-api)), each validated against
 * Kick's limits before anything is sent, and each answer read through its schema before anything uses it
 * (`kick-response.ts`). Returns Kick's wire shapes; an empty `data` is an empty result, never an error (unlike
 * kickcom.py).
 */
import { z } from 'zod';
import { LIMITS } from '../../shared/limits';
import {
  kickAdBreakCreated,
  kickAdBreakStatus,
  kickCategory,
  kickChannel,
  kickChatSendResult,
  kickEventSubscription,
  kickLeaderboard,
  kickLivestreamStats,
  kickLivestreamV1,
  kickLivestreamV2,
  kickPublicKey,
  kickRedemptionFailure,
  kickRedemptionGroup,
  kickReward,
  kickSubscribeResult,
  kickUser,
} from '../../shared/kick/resource-schemas';
import type {
  KickAdBreakCreated,
  KickAdBreakStatus,
  KickCategory,
  KickChannel,
  KickChatSendResult,
  KickEventSubscription,
  KickLeaderboard,
  KickLivestreamStats,
  KickLivestreamV1,
  KickLivestreamV2,
  KickRedemptionFailure,
  KickRedemptionGroup,
  KickReward,
  KickSubscribeResult,
  KickUser,
  Page,
} from '../../shared/kick/resources';
import { Checks, nonEmpty } from './checks';
import {
  banBody,
  type BanInput,
  type ChannelUpdate,
  channelUpdateBody,
  type ChatMessageInput,
  chatMessageBody,
  type RewardFields,
  rewardBody,
  rewardUpdateBody,
  redemptionIdsBody,
  adBreakBody,
  type AdBreakInput,
  subscribeBody,
  unbanBody,
} from './request-bodies';
import type { KickApiCore } from './kick-api-core';
import {
  type CategoriesFilter,
  categoriesQuery,
  type LivestreamsV1Filter,
  livestreamsV1Query,
  type LivestreamsV2Filter,
  livestreamsV2Query,
  type RedemptionsFilter,
  redemptionsQuery,
  userLivestreamsQuery,
} from './listing-queries';
import { toPage, walkPages } from './paging';
import { readAnswer } from './kick-response';

export type { RewardFields } from './request-bodies';

export class KickClient {
  readonly #core: KickApiCore;

  constructor(core: KickApiCore) {
    this.#core = core;
  }

  // --- Users and channels ---

  /** fetch_user: one user by id, or null when Kick has none. */
  async fetchUser(userId: number): Promise<KickUser | null> {
    new Checks('fetchUser').int('user_id', userId, { min: 1 });
    const data = readAnswer(
      'fetchUser',
      z.array(kickUser),
      await this.#core.data('fetchUser', { query: [['id', String(userId)]] }),
    );
    return data[0] ?? null;
  }

  /** The signed-in user (no `id`: Kick answers with the token's own user). */
  async fetchCurrentUser(): Promise<KickUser | null> {
    const data = readAnswer('fetchUser', z.array(kickUser), await this.#core.data('fetchUser'));
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
    const data = readAnswer('fetchChannel', z.array(kickChannel), await this.#core.data('fetchChannel', { query }));
    return data[0] ?? null;
  }

  /** update_channel: at least one of category, title and tags (≤10). */
  async updateChannel(input: ChannelUpdate): Promise<void> {
    await this.#core.call('updateChannel', { json: channelUpdateBody(input) });
  }

  // --- Livestreams ---

  /** fetch_livestreams_v2: one page, oldest first. */
  async fetchLivestreamsV2(input: LivestreamsV2Filter = {}): Promise<Page<KickLivestreamV2>> {
    const query = livestreamsV2Query(input);
    return toPage('fetchLivestreamsV2', await this.#core.call('fetchLivestreamsV2', { query }), kickLivestreamV2);
  }

  /** Every live stream matching the filters, across pages. */
  iterateLivestreamsV2(input: Omit<LivestreamsV2Filter, 'cursor'> = {}): AsyncGenerator<KickLivestreamV2> {
    return walkPages((cursor) => this.fetchLivestreamsV2({ ...input, cursor }));
  }

  /** fetch_user_livestreams: the live ones among 1–100 broadcasters (not-live users are absent). */
  async fetchUserLivestreams(userIds: number | number[]): Promise<KickLivestreamV2[]> {
    const query = userLivestreamsQuery(userIds);
    return readAnswer(
      'fetchUserLivestreams',
      z.array(kickLivestreamV2),
      await this.#core.data('fetchUserLivestreams', { query }),
    );
  }

  async fetchLivestreamStats(): Promise<KickLivestreamStats> {
    return readAnswer('fetchLivestreamStats', kickLivestreamStats, await this.#core.data('fetchLivestreamStats'));
  }

  /** fetch_livestream (deprecated v1): the broadcaster's stream, or null when not live. */
  async fetchLivestream(broadcasterUserId: number): Promise<KickLivestreamV1 | null> {
    new Checks('fetchLivestream').int('broadcaster_user_id', broadcasterUserId, { min: 1 });
    const data = readAnswer(
      'fetchLivestream',
      z.array(kickLivestreamV1),
      await this.#core.data('fetchLivestream', { query: [['broadcaster_user_id', String(broadcasterUserId)]] }),
    );
    return data[0] ?? null;
  }

  /** fetch_livestreams (deprecated v1). */
  async fetchLivestreams(input: LivestreamsV1Filter = {}): Promise<KickLivestreamV1[]> {
    const query = livestreamsV1Query(input);
    return readAnswer(
      'fetchLivestreams',
      z.array(kickLivestreamV1),
      await this.#core.data('fetchLivestreams', { query }),
    );
  }

  // --- Categories ---

  /** fetch_categories (v2): `query` is shorthand for one name. */
  async fetchCategories(input: CategoriesFilter = {}): Promise<Page<KickCategory>> {
    const query = categoriesQuery(input);
    return toPage('fetchCategories', await this.#core.call('fetchCategories', { query }), kickCategory);
  }

  iterateCategories(input: Omit<CategoriesFilter, 'cursor'> = {}): AsyncGenerator<KickCategory> {
    return walkPages((cursor) => this.fetchCategories({ ...input, cursor }));
  }

  // --- Chat and moderation ---

  /** send_chat_message: ≤500 characters; `user` messages need the broadcaster id. */
  async sendChatMessage(input: ChatMessageInput): Promise<KickChatSendResult> {
    return readAnswer(
      'sendChatMessage',
      kickChatSendResult,
      await this.#core.data('sendChatMessage', { json: chatMessageBody(input) }),
    );
  }

  async deleteChatMessage(messageId: string): Promise<void> {
    new Checks('deleteChatMessage').string('message_id', messageId, { min: 1 });
    await this.#core.call('deleteChatMessage', { pathParams: { message_id: messageId } });
  }

  /** ban_user: without `duration` a permanent ban; with it a timeout of 1–10080 minutes. */
  async banUser(input: BanInput): Promise<void> {
    await this.#core.call('banUser', { json: banBody(input) });
  }

  /** unban_user: also lifts a timeout. Kick takes the ids in a JSON body on DELETE. */
  async unbanUser(input: { broadcasterUserId: number; userId: number }): Promise<void> {
    await this.#core.call('unbanUser', { json: unbanBody(input) });
  }

  // --- Rewards and redemptions ---

  async fetchChannelRewards(): Promise<KickReward[]> {
    return readAnswer('fetchChannelRewards', z.array(kickReward), await this.#core.data('fetchChannelRewards'));
  }

  async createChannelReward(input: RewardFields & { title: string; cost: number }): Promise<KickReward> {
    const body = rewardBody('createChannelReward', input, true);
    return readAnswer('createChannelReward', kickReward, await this.#core.data('createChannelReward', { json: body }));
  }

  /** update_channel_reward: only the app that created the reward may update it. */
  async updateChannelReward(rewardId: string, input: RewardFields & { isPaused?: boolean }): Promise<KickReward> {
    new Checks('updateChannelReward').string('reward_id', rewardId, { min: 1 });
    const data = await this.#core.data('updateChannelReward', {
      json: rewardUpdateBody(input),
      pathParams: { reward_id: rewardId },
    });
    return readAnswer('updateChannelReward', kickReward, data);
  }

  async deleteChannelReward(rewardId: string): Promise<void> {
    new Checks('deleteChannelReward').string('reward_id', rewardId, { min: 1 });
    await this.#core.call('deleteChannelReward', { pathParams: { reward_id: rewardId } });
  }

  /** fetch_reward_redemptions: grouped by reward; `ids` cannot be combined with the other filters. */
  async fetchRewardRedemptions(input: RedemptionsFilter = {}): Promise<Page<KickRedemptionGroup>> {
    const query = redemptionsQuery(input);
    return toPage(
      'fetchRewardRedemptions',
      await this.#core.call('fetchRewardRedemptions', { query }),
      kickRedemptionGroup,
    );
  }

  iterateRewardRedemptions(input: Omit<RedemptionsFilter, 'cursor'> = {}): AsyncGenerator<KickRedemptionGroup> {
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
    return readAnswer(
      op,
      z.array(kickRedemptionFailure),
      await this.#core.data(op, { json: redemptionIdsBody(op, ids) }),
    );
  }

  // --- KICKs and ads ---

  async fetchKicksLeaderboard(top: number = LIMITS.leaderboardTopDefault): Promise<KickLeaderboard> {
    new Checks('fetchKicksLeaderboard').int('top', top, {
      min: LIMITS.leaderboardTopMin,
      max: LIMITS.leaderboardTopMax,
    });
    const data = await this.#core.data('fetchKicksLeaderboard', { query: [['top', String(top)]] });
    return readAnswer('fetchKicksLeaderboard', kickLeaderboard, data);
  }

  async fetchAdBreakStatus(): Promise<KickAdBreakStatus> {
    return readAnswer('fetchAdBreakStatus', kickAdBreakStatus, await this.#core.data('fetchAdBreakStatus'));
  }

  /** create_ad_break: 7–300 s; the break's id doubles as the idempotency key (see `adBreakBody`). */
  async createAdBreak(input: AdBreakInput): Promise<KickAdBreakCreated> {
    const data = await this.#core.data('createAdBreak', { json: adBreakBody(input), hasIdempotencyKey: true });
    return readAnswer('createAdBreak', kickAdBreakCreated, data);
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
    const data = await this.#core.data('fetchEventsSubscriptions', { query });
    return readAnswer('fetchEventsSubscriptions', z.array(kickEventSubscription), data);
  }

  /** subscribe_to_event: the created subscription, or null when Kick did not create it. */
  async subscribeToEvent(input: { eventType: string; userId: number }): Promise<KickSubscribeResult | null> {
    const [result] = await this.subscribeToEvents({ eventTypes: [input.eventType], userId: input.userId });
    return result?.subscription_id ? result : null;
  }

  /** Several event types in one request; each result says whether that one was created. */
  async subscribeToEvents(input: { eventTypes: string[]; userId: number }): Promise<KickSubscribeResult[]> {
    const data = await this.#core.data('subscribeToEvent', { json: subscribeBody(input) });
    return readAnswer('subscribeToEvent', z.array(kickSubscribeResult), data);
  }

  async unsubscribeFromEvent(subscriptionIds: string | string[]): Promise<void> {
    const c = new Checks('unsubscribeFromEvent');
    const ids = c.oneOrMany('subscription_id', subscriptionIds, { min: 1, unique: true }, nonEmpty(c));
    await this.#core.call('unsubscribeFromEvent', { query: ids.map((id): [string, string] => ['id', id]) });
  }

  // --- Keys ---

  /** The PEM public key Kick signs webhooks with (no token needed). */
  async fetchPublicKey(): Promise<string> {
    const data = readAnswer('fetchPublicKey', kickPublicKey, await this.#core.data('fetchPublicKey'));
    return data.public_key;
  }
}

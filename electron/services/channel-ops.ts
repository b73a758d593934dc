/**
 * Channel management through the Kick client: the redemption queue (accept/reject in Kick's batches of at
 * most 25), rewards (with which ones this app may edit), stream info and category search, the KICKs
 * leaderboard and ads.
 *
 * Which rewards are editable: Kick lets only the app that created a reward change it, and says so only in
 * the redemptions listing (`can_manage`); the rewards listing carries no creator. So what Kick taught —
 * this install created it, the listing said `can_manage`, an edit was refused with 403 — is remembered in
 * the settings, never only in memory: after a restart on the same channel (the same sandbox world) the
 * same rewards are editable ([design notes](../../docs/design-notes.md#which-rewards-greenroom-may-edit)).
 */
import { AppError, isAppError } from '../../shared/errors';
import type {
  KickAdBreakCreated,
  KickAdBreakStatus,
  KickCategory,
  KickLeaderboard,
  KickRedemptionFailure,
  KickRedemptionGroup,
  KickRedemptionStatus,
  KickReward,
} from '../../shared/kick/resources';
import { LIMITS } from '../../shared/limits';
import { type ChannelView, type RedemptionGroupView, type StreamKeyView, toChannelView } from '../../shared/views';
import type { KickClient, RewardFields } from '../kick/kick-client';
import { RedeemerNames } from './redeemer-names';

/** The Kick client operations channel management uses. */
export type ChannelClient = Pick<
  KickClient,
  | 'fetchRewardRedemptions'
  | 'acceptRewardRedemptions'
  | 'rejectRewardRedemptions'
  | 'fetchChannelRewards'
  | 'createChannelReward'
  | 'updateChannelReward'
  | 'deleteChannelReward'
  | 'fetchChannel'
  | 'updateChannel'
  | 'fetchCategories'
  | 'fetchKicksLeaderboard'
  | 'fetchAdBreakStatus'
  | 'enrollInAds'
  | 'createAdBreak'
  | 'fetchUser'
>;

/** The rewards this app may edit, as Kick last taught it (persisted in the settings). */
export interface ManagedRewards {
  has(id: string): boolean;
  add(id: string): void;
  remove(id: string): void;
}

/** What channel management is built from. */
export interface ChannelOpsDeps {
  client: ChannelClient;
  managedRewards: ManagedRewards;
  /** The signed-in broadcaster, when known (stream info works with the app token too then). */
  broadcasterUserId: () => number | null;
  /** A viewer's name from what main has seen (the feed and chat), or null; Kick's listing has only ids. */
  knownUsername?: (userId: number) => string | null;
  /** Redemptions that Kick accepted or rejected, to update the feed in place. */
  onRedemptionsDecided: (ids: string[], status: 'accepted' | 'rejected') => void;
  log: (line: string) => void;
}

/** Pages of redemptions read for one listing (25 a page): a queue longer than this is shown in part. */
const REDEMPTION_PAGES_MAX = 40;
const CATEGORY_RESULTS = 20;

/** A reward with whether this app may edit it. */
export type ManagedReward = KickReward & { canManage: boolean };

/** Redemptions, rewards, stream info, leaderboard and ads for the signed-in broadcaster. */
export class ChannelOps {
  #streamKeySeen: string | null = null;
  readonly #deps: ChannelOpsDeps;
  readonly #names: RedeemerNames;

  constructor(deps: ChannelOpsDeps) {
    this.#deps = deps;
    this.#names = new RedeemerNames({
      fetchUser: (id) => deps.client.fetchUser(id),
      knownUsername: deps.knownUsername,
      onLookupFailed: (error) => deps.log(`channel: could not look up some redeemers' names: ${describe(error)}`),
    });
  }

  // --- Redemptions ---

  /** Every redemption with the status (default pending), grouped by reward, pages merged, each with the
   * redeemer's name (`redeemer-names.ts`: Kick's listing has only ids). */
  async listRedemptions(status?: KickRedemptionStatus): Promise<RedemptionGroupView[]> {
    const groups = await this.#fetchRedemptions(status);
    const names = await this.#names.resolve(groups.flatMap((g) => g.redemptions.map((r) => r.redeemer.user_id)));
    return groups.map((g) => ({
      reward: g.reward,
      redemptions: g.redemptions.map((r) => ({ ...r, redeemerName: names.get(r.redeemer.user_id) ?? null })),
    }));
  }

  async #fetchRedemptions(status?: KickRedemptionStatus): Promise<KickRedemptionGroup[]> {
    const groups = new Map<string, KickRedemptionGroup>();
    let cursor: string | undefined;
    for (let page = 0; page < REDEMPTION_PAGES_MAX; page++) {
      const result = await this.#deps.client.fetchRewardRedemptions({ status, cursor });
      for (const group of result.items) {
        this.#learn(group.reward.id, group.reward.can_manage);
        const kept = groups.get(group.reward.id);
        if (kept) {
          kept.redemptions.push(...group.redemptions);
        } else {
          groups.set(group.reward.id, { reward: group.reward, redemptions: [...group.redemptions] });
        }
      }
      if (result.nextCursor === null) {
        return [...groups.values()];
      }
      cursor = result.nextCursor;
    }
    this.#deps.log(`channel: more than ${REDEMPTION_PAGES_MAX} pages of redemptions; showing the first ones`);
    return [...groups.values()];
  }

  accept(ids: string[]): Promise<KickRedemptionFailure[]> {
    return this.#decide(ids, 'accepted');
  }

  reject(ids: string[]): Promise<KickRedemptionFailure[]> {
    return this.#decide(ids, 'rejected');
  }

  /**
   * Sends the ids in batches of Kick's maximum and concatenates the failures. If a batch call itself fails
   * after earlier ones went through, its ids and the rest are reported as failed (UNKNOWN) rather than
   * hiding what was already done; if the first one fails, nothing happened and the error is thrown.
   */
  async #decide(ids: string[], status: 'accepted' | 'rejected'): Promise<KickRedemptionFailure[]> {
    const unique = [...new Set(ids)];
    const failures: KickRedemptionFailure[] = [];
    const { client } = this.#deps;
    const send = (batch: string[]): Promise<KickRedemptionFailure[]> =>
      status === 'accepted' ? client.acceptRewardRedemptions(batch) : client.rejectRewardRedemptions(batch);
    for (let start = 0; start < unique.length; start += LIMITS.redemptionIdsPerActionMax) {
      const batch = unique.slice(start, start + LIMITS.redemptionIdsPerActionMax);
      let batchFailures: KickRedemptionFailure[];
      try {
        batchFailures = await send(batch);
      } catch (error) {
        if (start === 0) {
          throw error;
        }
        this.#deps.log(`channel: a redemption batch failed after ${start} ids were sent: ${describe(error)}`);
        failures.push(...unique.slice(start).map((id): KickRedemptionFailure => ({ id, reason: 'UNKNOWN' })));
        break;
      }
      failures.push(...batchFailures);
      const failed = new Set(batchFailures.map((f) => f.id));
      const done = batch.filter((id) => !failed.has(id));
      if (done.length > 0) {
        this.#deps.onRedemptionsDecided(done, status);
      }
    }
    return failures;
  }

  // --- Rewards ---

  async listRewards(): Promise<ManagedReward[]> {
    const rewards = await this.#deps.client.fetchChannelRewards();
    return rewards.map((reward) => ({ ...reward, canManage: this.canManage(reward.id) }));
  }

  canManage(rewardId: string): boolean {
    return this.#deps.managedRewards.has(rewardId);
  }

  /** Remembers what Kick said of one reward, only when it changes what is remembered (a settings write). */
  #learn(rewardId: string, canManage: boolean): void {
    if (canManage !== this.#deps.managedRewards.has(rewardId)) {
      if (canManage) {
        this.#deps.managedRewards.add(rewardId);
      } else {
        this.#deps.managedRewards.remove(rewardId);
      }
    }
  }

  async createReward(fields: RewardFields & { title: string; cost: number }): Promise<KickReward> {
    const reward = await this.#deps.client.createChannelReward(fields);
    this.#learn(reward.id, true);
    return reward;
  }

  async updateReward(id: string, patch: RewardFields & { isPaused?: boolean }): Promise<KickReward> {
    try {
      const reward = await this.#deps.client.updateChannelReward(id, patch);
      this.#learn(id, true);
      return reward;
    } catch (error) {
      this.#learnFromRefusal(id, error);
      throw error;
    }
  }

  async deleteReward(id: string): Promise<void> {
    try {
      await this.#deps.client.deleteChannelReward(id);
    } catch (error) {
      this.#learnFromRefusal(id, error);
      throw error;
    }
    this.#learn(id, false);
  }

  #learnFromRefusal(id: string, error: unknown): void {
    if (isAppError(error) && error.code === 'Forbidden') {
      this.#learn(id, false);
    }
  }

  // --- Stream info ---

  /** The broadcaster's channel: title, category, tags, live status and viewers; never the stream key. */
  async streamInfo(): Promise<ChannelView | null> {
    const userId = this.#deps.broadcasterUserId();
    const channel = await this.#deps.client.fetchChannel(userId === null ? {} : { userId });
    // Kick sends the key with the channel to a token with `streamkey:read`: learned here too, though not shown.
    if (channel?.stream.key) {
      this.#streamKeySeen = channel.stream.key;
    }
    return channel === null ? null : toChannelView(channel);
  }

  /**
   * The stream key and server URL, for the one panel that asked (`stream:key`); nothing else carries them
   * (shared/views.ts ChannelView). Kick returns the key only to a token with `streamkey:read`.
   */
  async streamKey(grantedScopes: readonly string[]): Promise<StreamKeyView> {
    if (!grantedScopes.includes('streamkey:read')) {
      throw new AppError('MissingScope', 'reading the stream key needs streamkey:read; sign in again to allow it', {
        details: { scopes: ['streamkey:read'] },
      });
    }
    const userId = this.#deps.broadcasterUserId();
    const channel = await this.#deps.client.fetchChannel(userId === null ? {} : { userId });
    if (channel === null || !channel.stream.key) {
      throw new AppError('NotFound', 'Kick sent no stream key for this channel');
    }
    this.#streamKeySeen = channel.stream.key;
    return { key: channel.stream.key, url: channel.stream.url };
  }

  /**
   * The last stream key Kick sent (asked for, or with the channel), or null: for the logger to learn by value
   * before any line could carry it (../../docs/logging.md#no-secret-in-any-line). Not for showing: `streamKey`
   * is the only way to a panel.
   */
  streamKeySeen(): string | null {
    return this.#streamKeySeen;
  }

  /** Updates title, category and tags, then reads the channel back so the panel shows what Kick kept. */
  async updateStream(input: { title?: string; categoryId?: number; tags?: string[] }): Promise<ChannelView | null> {
    await this.#deps.client.updateChannel({
      streamTitle: input.title,
      categoryId: input.categoryId,
      customTags: input.tags,
    });
    return this.streamInfo();
  }

  /** Category autocomplete (v2 categories, by name). */
  async searchCategories(query: string): Promise<KickCategory[]> {
    return (await this.#deps.client.fetchCategories({ query, limit: CATEGORY_RESULTS })).items;
  }

  // --- KICKs and ads ---

  leaderboard(top: number): Promise<KickLeaderboard> {
    return this.#deps.client.fetchKicksLeaderboard(top);
  }

  adStatus(): Promise<KickAdBreakStatus> {
    return this.#deps.client.fetchAdBreakStatus();
  }

  enrollInAds(): Promise<void> {
    return this.#deps.client.enrollInAds();
  }

  runAdBreak(seconds: number): Promise<KickAdBreakCreated> {
    return this.#deps.client.createAdBreak({ breakDurationSeconds: seconds });
  }
}

function describe(error: unknown): string {
  return isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}

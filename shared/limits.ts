/**
 * Kick's documented limits ([seed §8](../docs/product-spec.md#8-limits), wire [reference §3](../docs/kick-wire-reference.md#3-rest-endpoints)). The API client validates against these before
 * sending anything, the sandbox enforces them as Kick does, and the panel's forms use them for counters.
 * One table, so a limit Kick changes is corrected in one place.
 */
export const LIMITS = {
  customTagsMax: 10,
  /** The reference does not state a per-tag length; Kick's UI caps tags at 25 characters. */
  customTagLengthMax: 25,
  livestreamsV2CategoryIdsMax: 25,
  livestreamsV2LanguageCodesMax: 25,
  livestreamsV2LimitMin: 1,
  livestreamsV2LimitMax: 1000,
  livestreamsV2LimitDefault: 100,
  userLivestreamsUserIdsMin: 1,
  userLivestreamsUserIdsMax: 100,
  livestreamsV1BroadcasterIdsMax: 50,
  livestreamsV1LimitMin: 1,
  livestreamsV1LimitMax: 100,
  livestreamsV1LimitDefault: 25,
  channelsLookupMax: 50,
  channelSlugLengthMax: 25,
  categoriesLimitMin: 1,
  categoriesLimitMax: 1000,
  categoriesLimitDefault: 25,
  chatContentMax: 500,
  banDurationMinutesMin: 1,
  banDurationMinutesMax: 10080,
  banReasonMax: 100,
  rewardCostMin: 1,
  rewardTitleMax: 50,
  rewardDescriptionMax: 200,
  rewardsPerChannelMax: 15,
  redemptionIdsPerActionMin: 1,
  redemptionIdsPerActionMax: 25,
  redemptionIdFilterMax: 50,
  leaderboardTopMin: 1,
  leaderboardTopMax: 100,
  leaderboardTopDefault: 10,
  adBreakSecondsMin: 7,
  adBreakSecondsMax: 300,
  authorizationWaitSecondsDefault: 300,
  /** Kick removes an event type's subscriptions after its deliveries fail for more than a day. */
  webhookFailureToleranceSeconds: 86_400,
} as const;

/** `#rgb` or `#rrggbb`, the forms Kick accepts for a reward's background colour. */
export const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Kick's default reward background colour ([reference §3.7](../docs/kick-wire-reference.md#37-channel-rewards)). */
export const DEFAULT_REWARD_COLOUR = '#00e701';

/**
 * Length as Kick counts it for chat content: Unicode code points (gokick counts runes), so an emoji
 * is one character, not two UTF-16 units.
 */
export function countCodePoints(text: string): number {
  let n = 0;
  for (const _ of text) {
    n++;
  }
  return n;
}

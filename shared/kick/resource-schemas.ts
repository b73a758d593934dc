/**
 * The shapes of Kick's REST answers, checked at runtime ([reference §3](../../docs/kick-wire-reference.md#3-rest-endpoints)).
 * The client parses every answer's `data` with these before anything reads it, so a field Kick changes gives one
 * clear error naming the operation and the field (`electron/kick/kick-response.ts`), not an `undefined` deep in a
 * view. The sandbox's answers pass the same schemas (a contract test).
 *
 * Lenient where Kick is loose and nothing depends on the value: fields Kick adds are kept and ignored (loose
 * objects), and a picture, description or other text shown as is may come as `null` or be missing, read as `''`.
 * Strict where Greenroom acts on the value: ids, names, counts, flags, statuses.
 */
import { z } from 'zod';
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
  KickTokenIntrospection,
  KickUser,
} from './resources';

/** Text shown as is or not used: `null` or missing reads as `''`. */
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
const id = z.string().min(1);
const userId = z.number().int();
const count = z.number();
const tags = z
  .array(z.string())
  .nullish()
  .transform((value) => value ?? []);

const category = z.looseObject({ id: z.number().int(), name: z.string(), thumbnail: text });

export const kickUser: z.ZodType<KickUser, unknown> = z.looseObject({
  user_id: userId,
  name: z.string(),
  email: text,
  profile_picture: text,
});

export const kickChannel: z.ZodType<KickChannel, unknown> = z.looseObject({
  broadcaster_user_id: userId,
  slug: z.string(),
  channel_description: text,
  banner_picture: text,
  stream_title: z.string(),
  category,
  stream: z.looseObject({
    is_live: z.boolean(),
    is_mature: z.boolean(),
    language: text,
    viewer_count: count,
    start_time: text,
    thumbnail: text,
    custom_tags: tags,
    url: text,
    key: text,
  }),
  active_subscribers_count: count,
  canceled_subscribers_count: count,
});

export const kickLivestreamV2: z.ZodType<KickLivestreamV2, unknown> = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  title: z.string(),
  thumbnail: text,
  started_at: z.string(),
  viewer_count: count,
  language_code: text,
  tags,
  has_mature_content: z.boolean(),
  broadcaster_user: z.looseObject({ id: userId, username: z.string(), profile_picture: text }),
  category,
  channel: z.looseObject({ slug: z.string() }),
});

export const kickLivestreamV1: z.ZodType<KickLivestreamV1, unknown> = z.looseObject({
  broadcaster_user_id: userId,
  channel_id: z.number().int(),
  slug: z.string(),
  stream_title: z.string(),
  language: text,
  has_mature_content: z.boolean(),
  viewer_count: count,
  thumbnail: text,
  started_at: z.string(),
  category,
  custom_tags: tags,
  profile_picture: text,
});

export const kickLivestreamStats: z.ZodType<KickLivestreamStats, unknown> = z.looseObject({ total_count: count });

export const kickCategory: z.ZodType<KickCategory, unknown> = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  tags,
  thumbnail: text,
});

// Read leniently: Kick has posted the message by the time it answers, and a send counted as failed would let the
// chat bot forget its own line and answer it when it comes back. `message_id` missing reads as '' (not known).
export const kickChatSendResult: z.ZodType<KickChatSendResult, unknown> = z.looseObject({
  is_sent: z.boolean().catch(true),
  message_id: text,
});

export const kickReward: z.ZodType<KickReward, unknown> = z.looseObject({
  id,
  title: z.string(),
  description: text,
  cost: count,
  background_color: text,
  is_enabled: z.boolean(),
  is_paused: z.boolean(),
  is_user_input_required: z.boolean(),
  should_redemptions_skip_request_queue: z.boolean(),
});

export const kickRedemptionGroup: z.ZodType<KickRedemptionGroup, unknown> = z.looseObject({
  reward: z.looseObject({
    id,
    title: z.string(),
    description: text,
    cost: count,
    can_manage: z.boolean(),
    is_deleted: z.boolean(),
  }),
  redemptions: z.array(
    z.looseObject({
      id,
      redeemed_at: z.string(),
      redeemer: z.looseObject({ user_id: userId }),
      status: z.enum(['pending', 'accepted', 'rejected']),
      user_input: text,
    }),
  ),
});

export const kickRedemptionFailure: z.ZodType<KickRedemptionFailure, unknown> = z.looseObject({
  id: z.string(),
  reason: z.enum(['UNKNOWN', 'NOT_PENDING', 'NOT_FOUND', 'NOT_OWNED']),
});

const leaderboardEntry = z.looseObject({
  user_id: userId,
  username: z.string(),
  gifted_amount: count,
  rank: count,
});

export const kickLeaderboard: z.ZodType<KickLeaderboard, unknown> = z.looseObject({
  lifetime: z.array(leaderboardEntry),
  month: z.array(leaderboardEntry),
  week: z.array(leaderboardEntry),
});

export const kickAdBreakStatus: z.ZodType<KickAdBreakStatus, unknown> = z.looseObject({
  opted_in: z.boolean(),
  ads_blocked: z.boolean(),
  remaining_ad_breaks: count,
  ad_breaks: z.array(
    z.looseObject({
      id: z.string(),
      status: text,
      break_duration_seconds: count,
      created_at: z.string(),
      source: text,
    }),
  ),
  limits: z.looseObject({ max: count, period_seconds: count }),
  auto_ads_active: z.boolean().optional(),
});

export const kickAdBreakCreated: z.ZodType<KickAdBreakCreated, unknown> = z.looseObject({
  id: z.string(),
  remaining_ad_breaks: count,
});

// Only the id, the broadcaster, the event and its version are acted on (the subscription reconciler, which keeps
// follows, subs and alerts coming): the rest is read leniently, so a change there cannot stop it.
export const kickEventSubscription: z.ZodType<KickEventSubscription, unknown> = z.looseObject({
  id,
  app_id: text,
  broadcaster_user_id: userId,
  event: z.string(),
  version: z.number().int(),
  method: z.literal('webhook').catch('webhook'),
  created_at: text,
  updated_at: text,
});

export const kickSubscribeResult: z.ZodType<KickSubscribeResult, unknown> = z.looseObject({
  name: z.string(),
  version: z.number().int(),
  subscription_id: z.string().optional(),
  error: z.string().optional(),
});

/** The key Kick signs webhooks with: a PEM text, checked before the receiver trusts it. */
export const kickPublicKey: z.ZodType<{ public_key: string }, unknown> = z.looseObject({
  public_key: z.string().refine((pem) => pem.includes('PUBLIC KEY'), 'not a PEM public key'),
});

// Only `active` is acted on (whether the saved sign-in still works); the rest is shown under details, so a value
// Kick spells differently reads as not known rather than failing the check.
export const kickTokenIntrospection: z.ZodType<KickTokenIntrospection, unknown> = z.looseObject({
  active: z.boolean(),
  client_id: z.string().nullish().catch(null),
  token_type: z.enum(['app', 'user']).nullish().catch(null),
  scope: z.string().nullish().catch(null),
  exp: z.number().nullish().catch(null),
});

/**
 * Kick API resources as they appear on the wire ([reference §3](../../docs/kick-wire-reference.md#3-rest-endpoints)). Field names are Kick's; the client
 * returns these shapes unchanged so nothing is lost in translation.
 */

/** `{ data, message }`: every api.kick.com JSON response ([reference §1](../../docs/kick-wire-reference.md#1-hosts-and-general-conventions)). */
export interface KickEnvelope<T> {
  data: T;
  message: string;
}

/** The paginated envelope of v2 livestreams, v2 categories and redemptions. */
export interface KickPagedEnvelope<T> extends KickEnvelope<T[]> {
  pagination: { next_cursor: string };
}

/** A page of results; `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface KickUser {
  user_id: number;
  name: string;
  email: string;
  profile_picture: string;
}

export interface KickCategoryRef {
  id: number;
  name: string;
  thumbnail: string;
}

export interface KickChannelStream {
  is_live: boolean;
  is_mature: boolean;
  language: string;
  viewer_count: number;
  start_time: string;
  thumbnail: string;
  custom_tags: string[];
  url: string;
  key: string;
}

export interface KickChannel {
  broadcaster_user_id: number;
  slug: string;
  channel_description: string;
  banner_picture: string;
  stream_title: string;
  category: KickCategoryRef;
  stream: KickChannelStream;
  active_subscribers_count: number;
  canceled_subscribers_count: number;
}

export interface KickLivestreamV2 {
  id: string;
  title: string;
  thumbnail: string;
  started_at: string;
  viewer_count: number;
  language_code: string;
  tags: string[];
  has_mature_content: boolean;
  broadcaster_user: { id: number; username: string; profile_picture: string };
  category: KickCategoryRef;
  channel: { slug: string };
}

export interface KickLivestreamV1 {
  broadcaster_user_id: number;
  channel_id: number;
  slug: string;
  stream_title: string;
  language: string;
  has_mature_content: boolean;
  viewer_count: number;
  thumbnail: string;
  started_at: string;
  category: KickCategoryRef;
  custom_tags: string[];
  profile_picture: string;
}

export interface KickLivestreamStats {
  total_count: number;
}

export interface KickCategory {
  id: number;
  name: string;
  tags: string[];
  thumbnail: string;
}

export interface KickCategoryV1 {
  id: number;
  name: string;
  thumbnail: string;
}

export interface KickCategoryDetail extends KickCategoryV1 {
  tags: string[];
  viewer_count: number;
}

export type KickChatMessageType = 'user' | 'bot';

export interface KickChatSendResult {
  is_sent: boolean;
  message_id: string;
}

export interface KickReward {
  id: string;
  title: string;
  description: string;
  cost: number;
  background_color: string;
  is_enabled: boolean;
  is_paused: boolean;
  is_user_input_required: boolean;
  should_redemptions_skip_request_queue: boolean;
}

export type KickRedemptionStatus = 'pending' | 'accepted' | 'rejected';

export interface KickRedemption {
  id: string;
  redeemed_at: string;
  redeemer: { user_id: number };
  status: KickRedemptionStatus;
  user_input: string;
}

export interface KickRedemptionGroup {
  reward: {
    id: string;
    title: string;
    description: string;
    cost: number;
    can_manage: boolean;
    is_deleted: boolean;
  };
  redemptions: KickRedemption[];
}

export type KickRedemptionFailureReason = 'UNKNOWN' | 'NOT_PENDING' | 'NOT_FOUND' | 'NOT_OWNED';

export interface KickRedemptionFailure {
  id: string;
  reason: KickRedemptionFailureReason;
}

export interface KickLeaderboardEntry {
  user_id: number;
  username: string;
  gifted_amount: number;
  rank: number;
}

export interface KickLeaderboard {
  lifetime: KickLeaderboardEntry[];
  month: KickLeaderboardEntry[];
  week: KickLeaderboardEntry[];
}

export interface KickAdBreak {
  id: string;
  status: string;
  break_duration_seconds: number;
  created_at: string;
  source: string;
}

export interface KickAdBreakStatus {
  opted_in: boolean;
  ads_blocked: boolean;
  remaining_ad_breaks: number;
  ad_breaks: KickAdBreak[];
  limits: { max: number; period_seconds: number };
  auto_ads_active?: boolean;
}

export interface KickAdBreakCreated {
  id: string;
  remaining_ad_breaks: number;
}

export interface KickEventSubscription {
  id: string;
  app_id: string;
  broadcaster_user_id: number;
  event: string;
  version: number;
  method: 'webhook';
  created_at: string;
  updated_at: string;
}

export interface KickSubscribeResult {
  name: string;
  version: number;
  subscription_id?: string;
  error?: string;
}

export interface KickTokenIntrospection {
  active: boolean;
  client_id?: string | null;
  token_type?: 'app' | 'user' | null;
  scope?: string | null;
  exp?: number | null;
}

/** id.kick.com token response: not wrapped in `data` ([reference §2.2](../../docs/kick-wire-reference.md#22-token)). */
export interface KickTokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

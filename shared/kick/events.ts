/**
 * Webhook payloads (v1) as Kick sends them ([reference §5.7–5.8](../../docs/kick-wire-reference.md#57-shared-user-objects-in-payloads)). Nullability follows real captured
 * deliveries, which are looser than the docs' examples: `is_verified` may be null and `identity` may be
 * absent altogether.
 */
import type { KickEventType } from './scopes';

export interface KickBadge {
  text: string;
  type: string;
  count?: number;
}

export interface KickIdentity {
  username_color: string;
  badges: KickBadge[];
}

/** EventUser: used by most events. */
export interface KickEventUser {
  is_anonymous: boolean;
  user_id: number | null;
  username: string | null;
  is_verified: boolean | null;
  profile_picture: string | null;
  channel_slug: string | null;
  identity?: KickIdentity | null;
}

/** CompactUser: `kicks.gifted` and reward redemptions; no `is_anonymous`, no `identity`. */
export interface KickCompactUser {
  user_id: number;
  username: string;
  is_verified: boolean | null;
  profile_picture: string | null;
  channel_slug: string | null;
}

export interface KickEmotePosition {
  s: number;
  e: number;
}

export interface ChatMessageSentPayload {
  message_id: string;
  replies_to?: { message_id: string; content: string; sender: KickEventUser } | null;
  broadcaster: KickEventUser;
  sender: KickEventUser;
  content: string;
  emotes: { emote_id: string; positions: KickEmotePosition[] }[] | null;
  created_at?: string;
}

export interface ChannelFollowedPayload {
  broadcaster: KickEventUser;
  follower: KickEventUser;
}

export interface ChannelSubscriptionPayload {
  broadcaster: KickEventUser;
  subscriber: KickEventUser;
  duration: number;
  created_at: string;
  expires_at?: string;
}

export interface ChannelSubscriptionGiftsPayload {
  broadcaster: KickEventUser;
  gifter: KickEventUser;
  giftees: KickEventUser[];
  created_at: string;
  expires_at?: string;
}

export interface RewardRedemptionUpdatedPayload {
  id: string;
  user_input: string;
  status: 'pending' | 'accepted' | 'rejected';
  redeemed_at: string;
  reward: { id: string; title: string; cost: number; description: string };
  redeemer: KickCompactUser;
  broadcaster: KickCompactUser;
}

export interface LivestreamStatusUpdatedPayload {
  broadcaster: KickEventUser;
  is_live: boolean;
  title: string;
  started_at: string;
  ended_at: string | null;
}

export interface LivestreamMetadataUpdatedPayload {
  broadcaster: KickEventUser;
  metadata: {
    title: string;
    language: string;
    has_mature_content: boolean;
    category: { id: number; name: string; thumbnail: string };
  };
}

export interface ModerationBannedPayload {
  broadcaster: KickEventUser;
  moderator: KickEventUser;
  banned_user: KickEventUser;
  metadata: { reason: string; created_at: string; expires_at: string | null };
}

export interface KicksGiftedPayload {
  broadcaster: KickCompactUser;
  sender: KickCompactUser;
  gift: {
    amount: number;
    name: string;
    type: string;
    tier: string;
    message: string;
    pinned_time_seconds?: number;
  };
  created_at: string;
}

/** Event type → payload, so listeners and builders are typed by the event name. */
export interface KickEventPayloads {
  'chat.message.sent': ChatMessageSentPayload;
  'channel.followed': ChannelFollowedPayload;
  'channel.subscription.renewal': ChannelSubscriptionPayload;
  'channel.subscription.gifts': ChannelSubscriptionGiftsPayload;
  'channel.subscription.new': ChannelSubscriptionPayload;
  'channel.reward.redemption.updated': RewardRedemptionUpdatedPayload;
  'livestream.status.updated': LivestreamStatusUpdatedPayload;
  'livestream.metadata.updated': LivestreamMetadataUpdatedPayload;
  'moderation.banned': ModerationBannedPayload;
  'kicks.gifted': KicksGiftedPayload;
}

/** Webhook header names ([reference §5.2](../../docs/kick-wire-reference.md#52-headers-on-event-webhooks)); the seed's `Service-Event-*` are these. Lower-cased as Node sees them. */
export const KICK_EVENT_HEADERS = {
  messageId: 'kick-event-message-id',
  subscriptionId: 'kick-event-subscription-id',
  signature: 'kick-event-signature',
  timestamp: 'kick-event-message-timestamp',
  type: 'kick-event-type',
  version: 'kick-event-version',
} as const;

export type AnyKickEventPayload = KickEventPayloads[KickEventType];

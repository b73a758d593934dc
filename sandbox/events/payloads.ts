/**
 * Builds v1 webhook payloads from sandbox state, field for field as [reference §5.7–5.8](../../docs/kick-wire-reference.md#57-shared-user-objects-in-payloads) describes them,
 * including the looseness of real deliveries (null `is_verified`, `identity` only on chat senders).
 */
import type {
  ChannelFollowedPayload,
  ChannelSubscriptionGiftsPayload,
  ChannelSubscriptionPayload,
  ChatMessageSentPayload,
  KickCompactUser,
  KickEventPayloads,
  KickEventUser,
  KicksGiftedPayload,
  LivestreamMetadataUpdatedPayload,
  LivestreamStatusUpdatedPayload,
  ModerationBannedPayload,
  RewardRedemptionUpdatedPayload,
} from '../../shared/kick/events';
import type { KickEventType } from '../../shared/kick/scopes';
import { toRfc3339 } from '../../electron/core/clock';
import { emotePositions } from '../../shared/emotes';
import type { SandboxBan, SandboxChannel, SandboxChatMessage, SandboxRedemption, SandboxState } from '../state';

/** An EventUser; `identity` is included only for chat senders, as Kick does. */
export function eventUser(
  state: SandboxState,
  userId: number,
  broadcasterUserId: number,
  withIdentity = false,
): KickEventUser {
  const user = state.user(userId);
  if (!user) {
    return {
      is_anonymous: false,
      user_id: userId,
      username: `user${userId}`,
      is_verified: null,
      profile_picture: '',
      channel_slug: null,
    };
  }
  const channel = state.channels.get(userId);
  const result: KickEventUser = {
    is_anonymous: false,
    user_id: user.userId,
    username: user.username,
    is_verified: user.isVerified,
    profile_picture: user.profilePicture,
    channel_slug: channel?.slug ?? user.username,
  };
  result.identity = withIdentity
    ? { username_color: user.usernameColor, badges: [...(user.badges.get(broadcasterUserId) ?? [])] }
    : null;
  return result;
}

export function anonymousUser(): KickEventUser {
  return {
    is_anonymous: true,
    user_id: null,
    username: null,
    is_verified: null,
    profile_picture: null,
    channel_slug: null,
    identity: null,
  };
}

export function compactUser(state: SandboxState, userId: number): KickCompactUser {
  const user = state.user(userId);
  const channel = state.channels.get(userId);
  return {
    user_id: userId,
    username: user?.username ?? `user${userId}`,
    is_verified: user?.isVerified ?? null,
    profile_picture: user?.profilePicture ?? '',
    channel_slug: channel?.slug ?? user?.username ?? null,
  };
}

// The `emotes` array for a chat message is the app's own reading of the tokens: 0-based, inclusive offsets of
// each whole token (UTF-16 units; see [reference §9](../../docs/kick-wire-reference.md#9-open-questions) question 11).
export { emotePositions };

export function chatMessagePayload(state: SandboxState, message: SandboxChatMessage): ChatMessageSentPayload {
  const payload: ChatMessageSentPayload = {
    message_id: message.messageId,
    broadcaster: eventUser(state, message.broadcasterUserId, message.broadcasterUserId),
    sender: eventUser(state, message.senderUserId, message.broadcasterUserId, true),
    content: message.content,
    emotes: emotePositions(message.content),
    created_at: toRfc3339(message.createdAtMs),
  };
  if (message.replyToMessageId) {
    const parent = state.chatMessages.get(message.replyToMessageId);
    if (parent) {
      const sender = eventUser(state, parent.senderUserId, parent.broadcasterUserId);
      payload.replies_to = { message_id: parent.messageId, content: parent.content, sender };
    }
  }
  return payload;
}

export function followPayload(
  state: SandboxState,
  broadcasterUserId: number,
  followerUserId: number,
): ChannelFollowedPayload {
  return {
    broadcaster: eventUser(state, broadcasterUserId, broadcasterUserId),
    follower: eventUser(state, followerUserId, broadcasterUserId),
  };
}

export function subscriptionPayload(
  state: SandboxState,
  broadcasterUserId: number,
  subscriberUserId: number,
  durationMonths: number,
  now = state.now(),
): ChannelSubscriptionPayload {
  return {
    broadcaster: eventUser(state, broadcasterUserId, broadcasterUserId),
    subscriber: eventUser(state, subscriberUserId, broadcasterUserId),
    duration: durationMonths,
    created_at: toRfc3339(now),
    expires_at: toRfc3339(now + 30 * 86_400_000),
  };
}

export function giftsPayload(
  state: SandboxState,
  broadcasterUserId: number,
  gifterUserId: number | null,
  gifteeUserIds: number[],
  now = state.now(),
): ChannelSubscriptionGiftsPayload {
  return {
    broadcaster: eventUser(state, broadcasterUserId, broadcasterUserId),
    gifter: gifterUserId === null ? anonymousUser() : eventUser(state, gifterUserId, broadcasterUserId),
    giftees: gifteeUserIds.map((id) => eventUser(state, id, broadcasterUserId)),
    created_at: toRfc3339(now),
    expires_at: toRfc3339(now + 30 * 86_400_000),
  };
}

export function redemptionPayload(state: SandboxState, redemption: SandboxRedemption): RewardRedemptionUpdatedPayload {
  const reward = state.rewards.get(redemption.rewardId);
  return {
    id: redemption.id,
    user_input: redemption.userInput,
    status: redemption.status,
    redeemed_at: toRfc3339(redemption.redeemedAtMs),
    reward: {
      id: redemption.rewardId,
      title: reward?.title ?? '',
      cost: reward?.cost ?? 0,
      description: reward?.description ?? '',
    },
    redeemer: compactUser(state, redemption.redeemerUserId),
    broadcaster: compactUser(state, redemption.broadcasterUserId),
  };
}

export function statusPayload(state: SandboxState, channel: SandboxChannel): LivestreamStatusUpdatedPayload {
  return {
    broadcaster: eventUser(state, channel.broadcasterUserId, channel.broadcasterUserId),
    is_live: channel.isLive,
    title: channel.streamTitle,
    started_at: toRfc3339(channel.startedAtMs ?? state.now()),
    ended_at: channel.isLive || channel.endedAtMs === null ? null : toRfc3339(channel.endedAtMs),
  };
}

export function metadataPayload(state: SandboxState, channel: SandboxChannel): LivestreamMetadataUpdatedPayload {
  const category = state.categories.get(channel.categoryId);
  return {
    broadcaster: eventUser(state, channel.broadcasterUserId, channel.broadcasterUserId),
    metadata: {
      title: channel.streamTitle,
      language: channel.language,
      has_mature_content: channel.isMature,
      category: { id: category?.id ?? 0, name: category?.name ?? '', thumbnail: category?.thumbnail ?? '' },
    },
  };
}

export function banPayload(state: SandboxState, ban: SandboxBan): ModerationBannedPayload {
  return {
    broadcaster: eventUser(state, ban.broadcasterUserId, ban.broadcasterUserId),
    moderator: eventUser(state, ban.moderatorUserId, ban.broadcasterUserId),
    banned_user: eventUser(state, ban.userId, ban.broadcasterUserId),
    metadata: {
      reason: ban.reason,
      created_at: toRfc3339(ban.createdAtMs),
      expires_at: ban.expiresAtMs === null ? null : toRfc3339(ban.expiresAtMs),
    },
  };
}

export const KICK_GIFTS = [
  { name: 'Hell Yeah', type: 'BASIC', tier: 'BASIC', amount: 1 },
  { name: 'Full Send', type: 'BASIC', tier: 'BASIC', amount: 50 },
  { name: 'Rage Quit', type: 'LEVEL_UP', tier: 'MID', amount: 100 },
  { name: 'Stomp', type: 'LEVEL_UP', tier: 'MID', amount: 500 },
  { name: 'Pack It Up', type: 'LEVEL_UP', tier: 'HIGH', amount: 1000 },
] as const;

export function kicksPayload(
  state: SandboxState,
  broadcasterUserId: number,
  senderUserId: number,
  gift: { name: string; type: string; tier: string; amount: number },
  message: string,
  atMs = state.now(),
): KicksGiftedPayload {
  return {
    broadcaster: compactUser(state, broadcasterUserId),
    sender: compactUser(state, senderUserId),
    gift: {
      amount: gift.amount,
      name: gift.name,
      type: gift.type,
      tier: gift.tier,
      message,
      pinned_time_seconds: gift.amount >= 100 ? 60 : 0,
    },
    created_at: toRfc3339(atMs),
  };
}

/** Announces an event to every app subscribed to it for this broadcaster (every event is version 1). */
export function emitEvent<T extends KickEventType>(
  state: SandboxState,
  type: T,
  broadcasterUserId: number,
  payload: KickEventPayloads[T],
): void {
  state.emit({ type, version: 1, broadcasterUserId, payload });
}

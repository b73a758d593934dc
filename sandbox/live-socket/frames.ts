/**
 * What Kick's live socket says about a change in the world ([events](../../docs/kick-wire-reference.md#103-events), [rooms](../../docs/kick-wire-reference.md#102-channels);
 * [sandbox facts](../../docs/sandbox.md#kicks-live-socket-in-the-sandbox)):
 * each webhook event the world announces becomes the socket frame Kick's web client gets for it, on the
 * room it comes on, at once (the webhook waits in its queue). Changes Kick announces only on the socket
 * (a deleted message, an unban, a host) arrive here as frames already.
 */
import type {
  ChannelSubscriptionGiftsPayload,
  ChannelSubscriptionPayload,
  ChatMessageSentPayload,
  KickEventUser,
  KicksGiftedPayload,
  LivestreamStatusUpdatedPayload,
  ModerationBannedPayload,
  RewardRedemptionUpdatedPayload,
} from '../../shared/kick/events';
import { createUuid } from '../../electron/core/ids';
import type { SandboxEvent, SandboxState } from '../state';
import { channelIdOf, chatroomIdOf, type LiveRoom } from './ids';

/** One event frame before it is addressed: the room names the channel, `data` is serialized per provider. */
export interface LiveFrame {
  broadcasterUserId: number;
  room: LiveRoom;
  /** The wire name, e.g. `App\Events\ChatMessageEvent` (one backslash in memory). */
  event: string;
  data: unknown;
  /** Fields added to the envelope beside event, data and channel (the unknown-fields trigger). */
  extraEnvelope?: Record<string, unknown>;
}

const PREFIX = 'App\\Events\\';

/** Kick's socket writes times to the whole second with a `+00:00` offset. */
export function socketTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', '+00:00');
}

function socketTimeFrom(rfc3339: string | undefined, fallbackMs: number): string {
  const parsed = rfc3339 === undefined ? Number.NaN : Date.parse(rfc3339);
  return socketTime(Number.isFinite(parsed) ? parsed : fallbackMs);
}

function shortUser(user: KickEventUser | { user_id: number; username: string; channel_slug: string | null }): {
  id: number;
  username: string;
  slug: string;
} {
  return { id: user.user_id ?? 0, username: user.username ?? '', slug: user.channel_slug ?? '' };
}

/** The ChatMessageEvent data for a webhook chat payload (section 10.3's field names). */
export function chatMessageData(
  broadcasterUserId: number,
  payload: ChatMessageSentPayload,
  nowMs: number,
): Record<string, unknown> {
  const reply = payload.replies_to ?? null;
  const data: Record<string, unknown> = {
    id: payload.message_id,
    chatroom_id: chatroomIdOf(broadcasterUserId),
    content: payload.content,
    type: reply ? 'reply' : 'message',
    created_at: socketTimeFrom(payload.created_at, nowMs),
    sender: {
      ...shortUser(payload.sender),
      identity: {
        color: payload.sender.identity?.username_color ?? '',
        badges: (payload.sender.identity?.badges ?? []).map((badge) => ({ ...badge })),
      },
    },
    metadata: reply
      ? {
          original_sender: { id: reply.sender.user_id ?? 0, username: reply.sender.username ?? '' },
          original_message: { id: reply.message_id, content: reply.content },
          message_ref: String(nowMs),
        }
      : { message_ref: String(nowMs) },
    thread_parent_id: '',
  };
  return data;
}

function banData(payload: ModerationBannedPayload, nowMs: number): Record<string, unknown> {
  const data: Record<string, unknown> = {
    id: createUuid(),
    user: shortUser(payload.banned_user),
    banned_by: shortUser(payload.moderator),
    permanent: payload.metadata.expires_at === null,
  };
  if (payload.metadata.expires_at !== null) {
    const expires = Date.parse(payload.metadata.expires_at);
    const created = Date.parse(payload.metadata.created_at);
    // Only timeouts carry these; C7 reads `duration` as minutes (section 10.3).
    data.duration = Math.max(1, Math.round(((Number.isFinite(expires) ? expires : nowMs) - created) / 60_000));
    data.expires_at = socketTimeFrom(payload.metadata.expires_at, nowMs);
  }
  return data;
}

/** The frames Kick's socket sends for one webhook event; none for events it has no frame for (follows). */
export function framesForEvent(state: SandboxState, event: SandboxEvent): LiveFrame[] {
  const b = event.broadcasterUserId;
  const now = state.now();
  const extras = event.liveExtras;
  const frame = (room: LiveRoom, name: string, data: Record<string, unknown>): LiveFrame => ({
    broadcasterUserId: b,
    room,
    event: name,
    data: extras?.data ? { ...data, ...extras.data } : data,
    ...(extras?.envelope ? { extraEnvelope: extras.envelope } : {}),
  });
  switch (event.type) {
    case 'chat.message.sent':
      return [
        frame(
          'chatrooms.v2',
          `${PREFIX}ChatMessageEvent`,
          chatMessageData(b, event.payload as ChatMessageSentPayload, now),
        ),
      ];
    case 'moderation.banned':
      return [
        frame('chatrooms.v2', `${PREFIX}UserBannedEvent`, banData(event.payload as ModerationBannedPayload, now)),
      ];
    case 'channel.subscription.new':
    case 'channel.subscription.renewal': {
      const payload = event.payload as ChannelSubscriptionPayload;
      return [
        frame('chatrooms.v2', `${PREFIX}SubscriptionEvent`, {
          chatroom_id: chatroomIdOf(b),
          username: payload.subscriber.username ?? '',
          months: payload.duration,
        }),
      ];
    }
    case 'channel.subscription.gifts': {
      const payload = event.payload as ChannelSubscriptionGiftsPayload;
      return [
        frame('chatroom_', 'GiftedSubscriptionsEvent', {
          chatroom_id: chatroomIdOf(b),
          gifted_usernames: payload.giftees.map((g) => g.username ?? ''),
          gifter_username: payload.gifter.username ?? '',
          gifter_total: payload.giftees.length,
        }),
      ];
    }
    case 'kicks.gifted': {
      const payload = event.payload as KicksGiftedPayload;
      return [
        frame('channel_', 'KicksGifted', {
          gift_transaction_id: createUuid(),
          message: payload.gift.message ?? '',
          sender: { id: payload.sender.user_id, username: payload.sender.username, username_color: '' },
          gift: {
            gift_id: payload.gift.name.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
            name: payload.gift.name,
            amount: payload.gift.amount,
            type: payload.gift.type,
            tier: payload.gift.tier,
            character_limit: 0,
            pinned_time: payload.gift.pinned_time_seconds ?? 0,
          },
          created_at: socketTimeFrom(payload.created_at, now),
        }),
      ];
    }
    case 'channel.reward.redemption.updated': {
      const payload = event.payload as RewardRedemptionUpdatedPayload;
      if (payload.status !== 'pending') {
        return [];
      }
      return [
        frame('chatroom_', 'RewardRedeemedEvent', {
          reward_title: payload.reward.title,
          user_id: payload.redeemer.user_id,
          channel_id: channelIdOf(b),
          username: payload.redeemer.username,
          user_input: payload.user_input,
          reward_background_color: '#00e701',
        }),
      ];
    }
    case 'livestream.status.updated': {
      const payload = event.payload as LivestreamStatusUpdatedPayload;
      const livestreamId = Math.floor(now / 1000);
      return payload.is_live
        ? [
            frame('channel.', `${PREFIX}StreamerIsLive`, {
              livestream: {
                id: livestreamId,
                channel_id: channelIdOf(b),
                session_title: payload.title,
                source: null,
                created_at: socketTimeFrom(payload.started_at, now),
              },
            }),
          ]
        : [
            frame('channel.', `${PREFIX}StopStreamBroadcast`, {
              livestream: { id: livestreamId, channel: { id: channelIdOf(b), is_banned: false } },
            }),
          ];
    }
    default:
      return [];
  }
}

/** A MessageDeletedEvent for a chat message a moderator removed (Kick has no webhook for it). */
export function messageDeletedFrame(broadcasterUserId: number, messageId: string): LiveFrame {
  return {
    broadcasterUserId,
    room: 'chatrooms.v2',
    event: `${PREFIX}MessageDeletedEvent`,
    data: { id: createUuid(), message: { id: messageId }, aiModerated: false, violatedRules: [] },
  };
}

/** A UserUnbannedEvent; `permanent: false` says a timeout was lifted (section 10.3). */
export function userUnbannedFrame(
  broadcasterUserId: number,
  user: { id: number; username: string; slug: string },
  by: { id: number; username: string; slug: string },
  permanent: boolean,
): LiveFrame {
  return {
    broadcasterUserId,
    room: 'chatrooms.v2',
    event: `${PREFIX}UserUnbannedEvent`,
    data: { id: createUuid(), user, unbanned_by: by, permanent },
  };
}

/** An incoming host or raid: the StreamHostEvent and its v1 twin StreamHostedEvent, as Kick sends both. */
export function hostFrames(
  broadcasterUserId: number,
  host: { userId: number; username: string; viewers: number; message: string | null },
  nowMs: number,
): LiveFrame[] {
  return [
    {
      broadcasterUserId,
      room: 'chatrooms.v2',
      event: `${PREFIX}StreamHostEvent`,
      data: {
        chatroom_id: chatroomIdOf(broadcasterUserId),
        optional_message: host.message ?? '',
        number_viewers: host.viewers,
        host_username: host.username,
      },
    },
    {
      broadcasterUserId,
      room: 'chatrooms.v2',
      event: `${PREFIX}StreamHostedEvent`,
      data: {
        message: {
          id: createUuid(),
          numberOfViewers: host.viewers,
          optionalMessage: host.message,
          createdAt: socketTime(nowMs),
        },
        user: { id: host.userId, username: host.username, isSuperAdmin: false, verified: false },
      },
    },
  ];
}

/** A chatroom's modes as ChatroomUpdatedEvent carries them (section 10.3's field names). */
export interface ChatroomModes {
  slow_mode: { enabled: boolean; message_interval: number };
  subscribers_mode: { enabled: boolean };
  followers_mode: { enabled: boolean; min_duration: number };
  emotes_mode: { enabled: boolean };
  account_age: { enabled: boolean; min_duration: number };
}

export function defaultChatroomModes(): ChatroomModes {
  return {
    slow_mode: { enabled: false, message_interval: 0 },
    subscribers_mode: { enabled: false },
    followers_mode: { enabled: false, min_duration: 0 },
    emotes_mode: { enabled: false },
    account_age: { enabled: false, min_duration: 0 },
  };
}

/** ChatroomUpdatedEvent: the whole set of modes, whichever changed. */
export function chatroomUpdatedFrame(broadcasterUserId: number, modes: ChatroomModes): LiveFrame {
  return {
    broadcasterUserId,
    room: 'chatrooms.v2',
    event: `${PREFIX}ChatroomUpdatedEvent`,
    data: { id: chatroomIdOf(broadcasterUserId), ...structuredClone(modes) },
  };
}

/** PinnedMessageCreatedEvent: the message in ChatMessageEvent's shape, `duration` seconds as a string. */
export function pinnedCreatedFrame(
  broadcasterUserId: number,
  message: Record<string, unknown>,
  durationSeconds: number,
  pinnedBy: { id: number; username: string; slug: string },
): LiveFrame {
  return {
    broadcasterUserId,
    room: 'chatrooms.v2',
    event: `${PREFIX}PinnedMessageCreatedEvent`,
    data: {
      message,
      duration: String(durationSeconds),
      pinnedBy: { ...pinnedBy, identity: { color: '', badges: [] } },
    },
  };
}

/** PinnedMessageDeletedEvent: its data is an empty list, `"[]"` on the wire. */
export function pinnedDeletedFrame(broadcasterUserId: number): LiveFrame {
  return { broadcasterUserId, room: 'chatrooms.v2', event: `${PREFIX}PinnedMessageDeletedEvent`, data: [] };
}

/** ChatroomClearEvent: its payload was never captured, so the sandbox sends only an id. */
export function chatroomClearFrame(broadcasterUserId: number): LiveFrame {
  return { broadcasterUserId, room: 'chatrooms.v2', event: `${PREFIX}ChatroomClearEvent`, data: { id: createUuid() } };
}

/**
 * Frames of Kick's live socket as the wire reference shows them (values made up), one per shape, and a helper
 * that wraps a payload the way each transport hands it over: a Pusher text frame with `data` as a JSON string,
 * or an envelope object whose `data` is already an object.
 */

export const CHATROOM = 'chatrooms.4242.v2';

export const CHAT_MESSAGE = {
  id: '0b6e7c1a-1111-4a2b-9c3d-222233334444',
  chatroom_id: 4242,
  content: 'hi [emote:37232:PeepoClap]',
  type: 'reply',
  created_at: '2026-01-02T03:04:05+00:00',
  sender: {
    id: 777,
    username: 'Viewer_1',
    slug: 'viewer-1',
    identity: {
      color: '#75FD46',
      badges: [{ type: 'subscriber', text: 'Subscriber', count: 6, sort_order: 9 }],
      badges_v2: [{ name: 'level', badge_type: 'global', metadata: { level: 12 }, selected: true }],
    },
  },
  metadata: {
    original_sender: { id: 888, username: 'OtherUser' },
    original_message: { id: '9f9f0000-0000-4000-8000-000000000001', content: 'question?' },
    message_ref: '1767300000000',
  },
  thread_parent_id: '',
};

const USER = { id: 777, username: 'Viewer_1', slug: 'viewer-1' };
const MOD = { id: 0, username: 'Streamer', slug: 'streamer' };

/** Each event name (as it comes on the wire) with a payload of the shape the reference gives. */
export const PAYLOADS: Record<string, unknown> = {
  'App\\Events\\ChatMessageEvent': CHAT_MESSAGE,
  'App\\Events\\MessageDeletedEvent': {
    id: 'd1',
    message: { id: CHAT_MESSAGE.id },
    aiModerated: true,
    violatedRules: ['is_spam-TRUE'],
  },
  'App\\Events\\UserBannedEvent': {
    id: 'b1',
    user: USER,
    banned_by: MOD,
    permanent: false,
    duration: 10,
    expires_at: '2026-01-02T03:14:05+00:00',
  },
  'App\\Events\\UserUnbannedEvent': { id: 'u1', user: USER, unbanned_by: MOD, permanent: false },
  'App\\Events\\ChatroomUpdatedEvent': {
    id: 4242,
    slow_mode: { enabled: true, message_interval: 5 },
    subscribers_mode: { enabled: false },
    followers_mode: { enabled: true, min_duration: 10 },
    emotes_mode: { enabled: false },
    advanced_bot_protection: { enabled: false, remaining_time: 0 },
    account_age: { enabled: false, min_duration: 0 },
  },
  'App\\Events\\ChatroomClearEvent': { id: 'c1' },
  'App\\Events\\PinnedMessageCreatedEvent': {
    message: CHAT_MESSAGE,
    duration: '1200',
    pinnedBy: { ...MOD, identity: { color: '#fff', badges: [] } },
  },
  'App\\Events\\PinnedMessageDeletedEvent': [],
  'App\\Events\\SubscriptionEvent': { chatroom_id: 4242, username: 'Viewer_1', months: 3 },
  GiftedSubscriptionsEvent: {
    chatroom_id: 4242,
    correlation_id: 'x',
    gifted_usernames: ['a', 'b'],
    gifter_username: 'Gifter',
    gifter_total: 12,
    gifted_total: 2,
    chunk_details: null,
  },
  KicksGifted: {
    gift_transaction_id: 'a7a7a7a7-0000-4000-8000-000000000000',
    message: 'gg',
    sender: { id: 777, username: 'Viewer_1', username_color: '#fff' },
    gift: { gift_id: 'rage_quit', name: 'Rage Quit', amount: 500, type: 'BASIC', tier: 'MID' },
    created_at: '2026-01-02T03:04:05Z',
  },
  RewardRedeemedEvent: {
    reward_title: 'Hydrate',
    user_id: 777,
    channel_id: 99,
    username: 'Viewer_1',
    user_input: 'now',
    reward_background_color: '#000',
  },
  'App\\Events\\StreamerIsLive': {
    livestream: { id: 55, channel_id: 99, session_title: 'Hello', source: null, created_at: '2026-01-02 03:04:05' },
  },
  'App\\Events\\StopStreamBroadcast': { livestream: { id: 55, channel: { id: 99, is_banned: false } } },
  'App\\Events\\StreamHostEvent': {
    chatroom_id: 4242,
    optional_message: 'hi all',
    number_viewers: 42,
    host_username: 'Raider',
  },
  'App\\Events\\StreamHostedEvent': {
    message: { id: 'h1', numberOfViewers: 42, optionalMessage: null, createdAt: '2026-01-02T03:04:05Z' },
    user: { id: 5, username: 'Raider', isSuperAdmin: false, verified: { id: 1 } },
  },
  'App\\Events\\ChatMoveToSupportedChannelEvent': {
    channel: { id: 99, user_id: 1, slug: 'streamer' },
    slug: 'target',
    hosted: { id: 7, username: 'Target', slug: 'target', viewers_count: 31, is_live: true },
  },
};

/** The `type` each event name above becomes. */
export const TYPES: Record<string, string> = {
  'App\\Events\\ChatMessageEvent': 'chat.message',
  'App\\Events\\MessageDeletedEvent': 'chat.deleted',
  'App\\Events\\UserBannedEvent': 'user.banned',
  'App\\Events\\UserUnbannedEvent': 'user.unbanned',
  'App\\Events\\ChatroomUpdatedEvent': 'chatroom.updated',
  'App\\Events\\ChatroomClearEvent': 'chat.cleared',
  'App\\Events\\PinnedMessageCreatedEvent': 'pin.created',
  'App\\Events\\PinnedMessageDeletedEvent': 'pin.deleted',
  'App\\Events\\SubscriptionEvent': 'subscription',
  GiftedSubscriptionsEvent: 'subs.gifted',
  KicksGifted: 'kicks.gifted',
  RewardRedeemedEvent: 'reward.redeemed',
  'App\\Events\\StreamerIsLive': 'stream.live',
  'App\\Events\\StopStreamBroadcast': 'stream.offline',
  'App\\Events\\StreamHostEvent': 'host',
  'App\\Events\\StreamHostedEvent': 'host',
  'App\\Events\\ChatMoveToSupportedChannelEvent': 'raid.outgoing',
};

/** A Pusher text frame as the socket sends it: `data` is a JSON string inside the JSON. */
export function wireFrame(event: string, data: unknown, channel = CHATROOM): string {
  return JSON.stringify({ event, data: JSON.stringify(data), channel });
}

/** The same frame as a library hands it over: `data` already an object. */
export function objectFrame(event: string, data: unknown, channel = CHATROOM): unknown {
  return { event, data, channel };
}

/** Adds fields Kick might add tomorrow, at the top and one level down. */
export function withExtras(payload: unknown): unknown {
  if (Array.isArray(payload) || typeof payload !== 'object' || payload === null) {
    return payload;
  }
  const out: Record<string, unknown> = { new_top_field: { nested: [1, 2] }, another: null };
  for (const [key, value] of Object.entries(payload)) {
    out[key] =
      typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, added_2027: 'x' } : value;
  }
  return out;
}

/**
 * Reads one frame of Kick's live socket ([reference §10](../../docs/kick-wire-reference.md#10-kicks-live-socket)) into
 * a {@link LiveFrame}, never throwing. The socket is unofficial and its payloads drift, so parsing is lenient:
 * unknown fields pass, a missing optional field becomes null, `data` may be a JSON string (Pusher's wire), an
 * object (pusher-js already decoded it, or a Centrifugo publication) or `"[]"`. Only a frame whose required
 * fields are missing or of the wrong type is `malformed`; an event name Greenroom does not know is `unknown`.
 * Events peers see but Greenroom leaves to the webhooks (leaderboards, polls, the four duplicate sub frames)
 * are `ignored`, so they are not counted as surprises ([reference §10.3](../../docs/kick-wire-reference.md#103-events)).
 */
import { z } from 'zod';
import { errResult, okResult, type Result } from '../errors';
import type { LiveBadge, LiveChatMessage, LiveEvent, LiveUser } from './live-events';

export type LiveFrame =
  | { kind: 'event'; event: LiveEvent }
  | { kind: 'connected'; socketId: string; activityTimeoutSeconds: number | null }
  | { kind: 'subscribed'; channel: string | null }
  | { kind: 'subscription-error'; channel: string | null }
  | { kind: 'ping' }
  | { kind: 'pong' }
  | { kind: 'error'; code: number | null; message: string }
  | { kind: 'ignored'; name: string }
  | { kind: 'unknown'; name: string }
  | { kind: 'malformed'; name: string | null; reason: string };

/** Events known on the wire that Greenroom takes from the webhooks or does not use. */
const IGNORED = new Set([
  'PollUpdateEvent',
  'PollDeleteEvent',
  'ChannelSubscriptionEvent',
  'NewSubscriberUpdatedEvent',
  'NewActivityFeedEvent',
  'ChatMessageSentEvent',
  'LuckyUsersWhoGotGiftSubscriptionsEvent',
  'KicksLeaderboardUpdated',
  'GiftsLeaderboardUpdated',
  'GoalProgressUpdateEvent',
  'LivestreamUpdated',
  'FollowersUpdated',
  'ChatSettingsChanged',
  'PredictionCreated',
  'PredictionUpdated',
]);

/** Strips Kick's `App\Events\` prefix, which some events carry and some lost over time. */
export function liveEventName(name: string): string {
  const at = name.lastIndexOf('\\');
  return at === -1 ? name : name.slice(at + 1);
}

// --- Lenient field schemas ---

/** A numeric id, as a number or a numeric string (peers saw both). */
const id = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,18}$/)
    .transform(Number),
]);
const optId = id.nullish().catch(null);
const optString = z.string().nullish().catch(null);
const optNumber = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .nullish()
  .catch(null);
const optBool = z.boolean().nullish().catch(null);
const enabled = z.looseObject({ enabled: z.boolean() }).nullish().catch(null);

const user = z.looseObject({ id, username: z.string(), slug: optString });
const optUser = user.nullish().catch(null);
const badge = z.looseObject({ type: z.string(), text: z.string().catch(''), count: optNumber });

const chatMessage = z.looseObject({
  id: z.string().min(1),
  chatroom_id: optId,
  content: z.string(),
  type: z.string().catch('message'),
  created_at: optString,
  sender: z.looseObject({
    id,
    username: z.string(),
    slug: optString,
    identity: z
      .looseObject({ color: optString, badges: z.array(z.unknown()).catch(() => []) })
      .nullish()
      .catch(null),
  }),
  metadata: z
    .looseObject({
      original_sender: z.looseObject({ id, username: z.string() }).nullish().catch(null),
      original_message: z
        .looseObject({ id: z.string(), content: z.string().catch('') })
        .nullish()
        .catch(null),
    })
    .nullish()
    .catch(null),
});

function toUser(value: { id: number; username: string; slug?: string | null } | null | undefined): LiveUser | null {
  return value ? { id: value.id, username: value.username, slug: value.slug ?? null } : null;
}

function toChatMessage(data: z.infer<typeof chatMessage>): LiveChatMessage {
  const badges: LiveBadge[] = [];
  for (const raw of data.sender.identity?.badges ?? []) {
    const parsed = badge.safeParse(raw);
    if (parsed.success) {
      badges.push({ type: parsed.data.type, text: parsed.data.text, count: parsed.data.count ?? null });
    }
  }
  const original = data.metadata?.original_message;
  const originalSender = data.metadata?.original_sender;
  return {
    messageId: data.id,
    chatroomId: data.chatroom_id ?? null,
    content: data.content,
    messageType: data.type,
    sender: {
      id: data.sender.id,
      username: data.sender.username,
      slug: data.sender.slug ?? null,
      color: data.sender.identity?.color ?? null,
      badges,
    },
    replyTo:
      original && originalSender
        ? {
            messageId: original.id,
            content: original.content,
            sender: { id: originalSender.id, username: originalSender.username },
          }
        : null,
    createdAt: data.created_at ?? null,
  };
}

/**
 * The chat line in the shape Kick sends nearly every time, read by hand: in a raid the schema above cost about
 * 40 µs of the app's CPU per line. Anything else (a numeric string for an id, a field of another type, a badge
 * the schema would drop or repair) returns null and is read by the schema, so the result never differs from its.
 */
export function quickChatMessage(data: unknown): LiveChatMessage | null {
  if (!isRecord(data)) {
    return null;
  }
  const { id: messageId, chatroom_id: chatroomId, content, type, created_at: createdAt, sender, metadata } = data;
  if (
    typeof messageId !== 'string' ||
    messageId === '' ||
    typeof content !== 'string' ||
    typeof type !== 'string' ||
    !(chatroomId == null || isIdNumber(chatroomId)) ||
    !(createdAt == null || typeof createdAt === 'string') ||
    !isRecord(sender) ||
    !isIdNumber(sender.id) ||
    typeof sender.username !== 'string' ||
    !(sender.slug == null || typeof sender.slug === 'string')
  ) {
    return null;
  }
  const identity = sender.identity;
  let color: string | null = null;
  const badges: LiveBadge[] = [];
  if (identity != null) {
    if (!isRecord(identity) || !(identity.color == null || typeof identity.color === 'string')) {
      return null;
    }
    color = identity.color ?? null;
    const raw = identity.badges;
    if (raw !== undefined) {
      if (!Array.isArray(raw)) {
        return null;
      }
      for (const b of raw) {
        if (
          !isRecord(b) ||
          typeof b.type !== 'string' ||
          typeof b.text !== 'string' ||
          !(b.count == null || (typeof b.count === 'number' && Number.isFinite(b.count)))
        ) {
          return null;
        }
        badges.push({ type: b.type, text: b.text, count: b.count ?? null });
      }
    }
  }
  let replyTo: LiveChatMessage['replyTo'] = null;
  if (metadata != null) {
    if (!isRecord(metadata)) {
      return null;
    }
    const { original_sender: by, original_message: original } = metadata;
    if (
      !(by == null || (isRecord(by) && isIdNumber(by.id) && typeof by.username === 'string')) ||
      !(
        original == null ||
        (isRecord(original) && typeof original.id === 'string' && typeof original.content === 'string')
      )
    ) {
      return null;
    }
    if (by != null && original != null) {
      replyTo = {
        messageId: original.id as string,
        content: original.content as string,
        sender: { id: by.id as number, username: by.username as string },
      };
    }
  }
  return {
    messageId,
    chatroomId: chatroomId ?? null,
    content,
    messageType: type,
    sender: {
      id: sender.id,
      username: sender.username,
      slug: sender.slug ?? null,
      color,
      badges,
    },
    replyTo,
    createdAt: createdAt ?? null,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIdNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** The chat line by the schema, never by the quick reader (tests compare the two). */
export const schemaChatMessage = (data: unknown): LiveChatMessage => toChatMessage(read(chatMessage, data));

type Reader = (data: unknown, channel: string | null) => LiveEvent;

/** Parses `data` with `schema`, throwing a plain reason the caller turns into `malformed`. */
function read<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MalformedData(`${issue?.path.join('.') || 'data'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

class MalformedData extends Error {}
/**
 * Each event's `data` schema, built once. zod compiles an object schema's checks into a function the first time it
 * parses with it, so a schema built per frame compiled anew for every ban, deletion or host
 * ([decisions](../../docs/decisions.md#a-frames-schema-is-built-once)).
 */
const FRAME_DATA = {
  MessageDeletedEvent: z.looseObject({
    message: z.looseObject({ id: z.string().min(1) }),
    aiModerated: optBool,
    violatedRules: z
      .array(z.string())
      .catch(() => [])
      .nullish(),
  }),
  UserBannedEvent: z.looseObject({
    user,
    banned_by: optUser,
    permanent: optBool,
    duration: optNumber,
    expires_at: optString,
  }),
  UserUnbannedEvent: z.looseObject({ user, unbanned_by: optUser, permanent: optBool }),
  StreamHostEvent: z.looseObject({
    host_username: z.string().min(1),
    number_viewers: optNumber,
    optional_message: optString,
  }),
  StreamHostedEvent: z.looseObject({
    message: z.looseObject({
      id: optString,
      numberOfViewers: optNumber,
      optionalMessage: optString,
      createdAt: optString,
    }),
    user: z.looseObject({ username: z.string().min(1) }),
  }),
  ChatMoveToSupportedChannelEvent: z.looseObject({
    slug: z.string().min(1),
    hosted: z.looseObject({ viewers_count: optNumber }).nullish().catch(null),
  }),
  ChatroomUpdatedEvent: z.looseObject({
    slow_mode: z.looseObject({ enabled: z.boolean(), message_interval: optNumber }).nullish().catch(null),
    followers_mode: z.looseObject({ enabled: z.boolean(), min_duration: optNumber }).nullish().catch(null),
    subscribers_mode: enabled,
    emotes_mode: enabled,
  }),
  PinnedMessageCreatedEvent: z.looseObject({ message: chatMessage, duration: optNumber, pinnedBy: optUser }),
  SubscriptionEvent: z.looseObject({ username: z.string().min(1), months: optNumber }),
  GiftedSubscriptionsEvent: z.looseObject({
    gifted_usernames: z.array(z.string()),
    gifter_username: optString,
    gifter_total: optNumber,
  }),
  KicksGifted: z.looseObject({
    gift_transaction_id: optString,
    message: optString,
    sender: user,
    gift: z.looseObject({ gift_id: z.string().min(1), name: optString, amount: z.number() }),
    created_at: optString,
  }),
  RewardRedeemedEvent: z.looseObject({
    reward_title: z.string(),
    username: z.string(),
    user_id: optId,
    user_input: optString,
  }),
  StreamerIsLive: z.looseObject({
    livestream: z.looseObject({ id: optId, session_title: optString, created_at: optString }),
  }),
  StopStreamBroadcast: z.looseObject({ livestream: z.looseObject({ id: optId }).nullish().catch(null) }),
};

const READERS: Record<string, Reader> = {
  ChatMessageEvent: (data, channel) => ({
    type: 'chat.message',
    channel,
    ...(quickChatMessage(data) ?? schemaChatMessage(data)),
  }),
  MessageDeletedEvent: (data, channel) => {
    const d = read(FRAME_DATA.MessageDeletedEvent, data);
    return {
      type: 'chat.deleted',
      channel,
      messageId: d.message.id,
      aiModerated: d.aiModerated ?? false,
      violatedRules: d.violatedRules ?? [],
    };
  },
  UserBannedEvent: (data, channel) => {
    const d = read(FRAME_DATA.UserBannedEvent, data);
    return {
      type: 'user.banned',
      channel,
      user: toUser(d.user)!,
      bannedBy: toUser(d.banned_by),
      // A frame without `permanent` is a ban unless it names a duration.
      permanent: d.permanent ?? d.duration == null,
      durationMinutes: d.duration ?? null,
      expiresAt: d.expires_at ?? null,
    };
  },
  UserUnbannedEvent: (data, channel) => {
    const d = read(FRAME_DATA.UserUnbannedEvent, data);
    return {
      type: 'user.unbanned',
      channel,
      user: toUser(d.user)!,
      unbannedBy: toUser(d.unbanned_by),
      permanent: d.permanent ?? true,
    };
  },
  StreamHostEvent: (data, channel) => {
    const d = read(FRAME_DATA.StreamHostEvent, data);
    return {
      type: 'host',
      channel,
      version: 'v2',
      hostId: null,
      hostUsername: d.host_username,
      viewers: d.number_viewers ?? 0,
      message: d.optional_message || null,
      createdAt: null,
    };
  },
  StreamHostedEvent: (data, channel) => {
    const d = read(FRAME_DATA.StreamHostedEvent, data);
    return {
      type: 'host',
      channel,
      version: 'v1',
      hostId: d.message.id ?? null,
      hostUsername: d.user.username,
      viewers: d.message.numberOfViewers ?? 0,
      message: d.message.optionalMessage || null,
      createdAt: d.message.createdAt ?? null,
    };
  },
  ChatMoveToSupportedChannelEvent: (data, channel) => {
    const d = read(FRAME_DATA.ChatMoveToSupportedChannelEvent, data);
    return { type: 'raid.outgoing', channel, targetSlug: d.slug, viewers: d.hosted?.viewers_count ?? null };
  },
  ChatroomUpdatedEvent: (data, channel) => {
    const d = read(FRAME_DATA.ChatroomUpdatedEvent, data);
    return {
      type: 'chatroom.updated',
      channel,
      slowMode: d.slow_mode
        ? { enabled: d.slow_mode.enabled, intervalSeconds: d.slow_mode.message_interval ?? null }
        : null,
      followersMode: d.followers_mode
        ? { enabled: d.followers_mode.enabled, minDurationMinutes: d.followers_mode.min_duration ?? null }
        : null,
      subscribersMode: d.subscribers_mode ? { enabled: d.subscribers_mode.enabled } : null,
      emotesMode: d.emotes_mode ? { enabled: d.emotes_mode.enabled } : null,
    };
  },
  ChatroomClearEvent: (_data, channel) => ({ type: 'chat.cleared', channel }),
  PinnedMessageCreatedEvent: (data, channel) => {
    const d = read(FRAME_DATA.PinnedMessageCreatedEvent, data);
    return {
      type: 'pin.created',
      channel,
      message: toChatMessage(d.message),
      durationSeconds: d.duration ?? null,
      pinnedBy: toUser(d.pinnedBy),
    };
  },
  PinnedMessageDeletedEvent: (_data, channel) => ({ type: 'pin.deleted', channel }),
  SubscriptionEvent: (data, channel) => {
    const d = read(FRAME_DATA.SubscriptionEvent, data);
    return { type: 'subscription', channel, username: d.username, months: d.months ?? null };
  },
  GiftedSubscriptionsEvent: (data, channel) => {
    const d = read(FRAME_DATA.GiftedSubscriptionsEvent, data);
    return {
      type: 'subs.gifted',
      channel,
      gifterUsername: d.gifter_username ?? null,
      recipients: d.gifted_usernames,
      gifterTotal: d.gifter_total ?? null,
    };
  },
  KicksGifted: (data, channel) => {
    const d = read(FRAME_DATA.KicksGifted, data);
    return {
      type: 'kicks.gifted',
      channel,
      transactionId: d.gift_transaction_id ?? null,
      sender: toUser(d.sender)!,
      giftId: d.gift.gift_id,
      giftName: d.gift.name ?? null,
      amount: d.gift.amount,
      message: d.message ?? null,
      createdAt: d.created_at ?? null,
    };
  },
  RewardRedeemedEvent: (data, channel) => {
    const d = read(FRAME_DATA.RewardRedeemedEvent, data);
    return {
      type: 'reward.redeemed',
      channel,
      title: d.reward_title,
      userId: d.user_id ?? null,
      username: d.username,
      input: d.user_input || null,
    };
  },
  StreamerIsLive: (data, channel) => {
    const d = read(FRAME_DATA.StreamerIsLive, data);
    return {
      type: 'stream.live',
      channel,
      livestreamId: d.livestream.id ?? null,
      title: d.livestream.session_title ?? null,
      createdAt: d.livestream.created_at ?? null,
    };
  },
  StopStreamBroadcast: (data, channel) => {
    const d = read(FRAME_DATA.StopStreamBroadcast, data);
    return { type: 'stream.offline', channel, livestreamId: d.livestream?.id ?? null };
  },
};

/** `data` as the protocols send it: a JSON string, an object, or nothing; `undefined` when it is unreadable. */
function decodeData(data: unknown): Result<unknown, null> {
  if (typeof data !== 'string') {
    return okResult(data ?? {});
  }
  if (data.trim() === '') {
    return okResult({});
  }
  try {
    return okResult(JSON.parse(data) as unknown);
  } catch {
    return errResult(null);
  }
}

const envelope = z.looseObject({
  event: z.string().min(1),
  channel: z.string().nullish(),
  data: z.unknown().optional(),
});

/** The frame's envelope: the usual one checked by hand (one frame per chat line), anything else by the schema. */
function readEnvelope(value: unknown): z.infer<typeof envelope> | null {
  if (isRecord(value) && typeof value.event === 'string' && value.event !== '') {
    const { channel } = value;
    if (channel === undefined || channel === null || typeof channel === 'string') {
      return { event: value.event, channel, data: value.data };
    }
  }
  const parsed = envelope.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Pusher's own frames' `data`, built once as the events' are (`FRAME_DATA`). */
const connectionEstablished = z.looseObject({
  socket_id: z.string().min(1),
  activity_timeout: z.number().positive().nullish().catch(null),
});
const pusherError = z.looseObject({ code: z.number().int().nullish().catch(null), message: z.string().catch('') });

/**
 * Reads one frame: a raw text frame, or an envelope object (`{event, data, channel}`) a library already split.
 * `channel` names the channel when the transport knows it but the envelope does not (a Centrifugo publication).
 */
export function parseLiveFrame(frame: unknown, channel: string | null = null): LiveFrame {
  let value = frame;
  if (typeof frame === 'string') {
    try {
      value = JSON.parse(frame);
    } catch {
      return { kind: 'malformed', name: null, reason: 'not JSON' };
    }
  }
  const env = readEnvelope(value);
  if (env === null) {
    return { kind: 'malformed', name: null, reason: 'no event name' };
  }
  const rawName = env.event;
  const on = env.channel ?? channel;
  const decoded = decodeData(env.data);
  if (!decoded.ok) {
    return { kind: 'malformed', name: liveEventName(rawName), reason: 'data is not JSON' };
  }
  const data = decoded.value;
  switch (rawName) {
    case 'pusher:connection_established': {
      const d = connectionEstablished.safeParse(data);
      return d.success
        ? { kind: 'connected', socketId: d.data.socket_id, activityTimeoutSeconds: d.data.activity_timeout ?? null }
        : { kind: 'malformed', name: rawName, reason: 'no socket_id' };
    }
    case 'pusher_internal:subscription_succeeded':
    case 'pusher:subscription_succeeded':
      return { kind: 'subscribed', channel: on };
    case 'pusher:subscription_error':
      return { kind: 'subscription-error', channel: on };
    case 'pusher:ping':
      return { kind: 'ping' };
    case 'pusher:pong':
      return { kind: 'pong' };
    case 'pusher:error': {
      const d = pusherError.safeParse(data);
      return d.success
        ? { kind: 'error', code: d.data.code ?? null, message: d.data.message }
        : { kind: 'error', code: null, message: '' };
    }
  }
  const name = liveEventName(rawName);
  // Own keys only: a frame named `__proto__`, `constructor` or `toString` must not find Object's machinery.
  const reader = Object.hasOwn(READERS, name) ? READERS[name] : undefined;
  if (!reader) {
    return IGNORED.has(name) || rawName.startsWith('pusher') ? { kind: 'ignored', name } : { kind: 'unknown', name };
  }
  try {
    return { kind: 'event', event: reader(data, on ?? null) };
  } catch (error) {
    if (error instanceof MalformedData) {
      return { kind: 'malformed', name, reason: error.message };
    }
    throw error;
  }
}

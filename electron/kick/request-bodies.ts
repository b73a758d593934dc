/**
 * The JSON bodies of Kick's write operations (channel update, chat, bans, rewards, event subscriptions),
 * each field checked against Kick's limits ([seed §8](../../docs/product-spec.md#8-limits)) before anything is
 * sent; a failure is a ValidationError naming the field and the limit. Kept apart from the client so its
 * methods stay one request each.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_REWARD_COLOUR, HEX_COLOUR, LIMITS } from '../../shared/limits';
import type { KickChatMessageType } from '../../shared/kick/resources';
import { isKickEventType } from '../../shared/kick/scopes';
import { Checks, nonEmpty } from './checks';
import { WIRE_ASSUMPTIONS } from './wire-assumptions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Body = Record<string, unknown>;

export interface ChannelUpdate {
  categoryId?: number;
  streamTitle?: string;
  customTags?: string[];
}

export interface ChatMessageInput {
  content: string;
  type?: KickChatMessageType;
  /** Required for `user` messages. */
  broadcasterUserId?: number;
  replyToMessageId?: string;
}

export interface BanInput {
  broadcasterUserId: number;
  userId: number;
  /** Minutes; without it a permanent ban. */
  duration?: number;
  reason?: string;
}

export interface AdBreakInput {
  breakDurationSeconds: number;
  /** A UUID; generated when omitted. */
  adBreakId?: string;
}

export interface RewardFields {
  title?: string;
  cost?: number;
  description?: string;
  backgroundColor?: string;
  isEnabled?: boolean;
  isUserInputRequired?: boolean;
  shouldRedemptionsSkipRequestQueue?: boolean;
}

/** update_channel: at least one of category, title and tags (≤10). */
export function channelUpdateBody(input: ChannelUpdate): Body {
  const c = new Checks('updateChannel');
  const body: Body = {};
  if (input.categoryId !== undefined) {
    body.category_id = c.int('category_id', input.categoryId, { min: 1 });
  }
  if (input.streamTitle !== undefined) {
    body.stream_title = c.string('stream_title', input.streamTitle, { min: 1 });
  }
  if (input.customTags !== undefined) {
    body.custom_tags = c.list('custom_tags', input.customTags, { max: LIMITS.customTagsMax, unique: true }, (v, n) =>
      c.string(n, v, { min: 1, max: LIMITS.customTagLengthMax }),
    );
  }
  if (Object.keys(body).length === 0) {
    c.fail('category_id, stream_title, custom_tags', 'give at least one to update');
  }
  return body;
}

/** send_chat_message: ≤500 characters; `user` messages need the broadcaster id. */
export function chatMessageBody(input: ChatMessageInput): Body {
  const c = new Checks('sendChatMessage');
  const type = input.type ?? 'bot';
  if (type !== 'bot' && type !== 'user') {
    c.fail('type', 'must be user or bot');
  }
  const body: Body = {
    type,
    content: c.string('content', input.content, { min: 1, max: LIMITS.chatContentMax, codePoints: true }),
  };
  if (type === 'user') {
    if (input.broadcasterUserId === undefined) {
      c.fail('broadcaster_user_id', 'is required when type is user');
    }
    body.broadcaster_user_id = c.int('broadcaster_user_id', input.broadcasterUserId, { min: 1 });
  }
  if (input.replyToMessageId !== undefined) {
    body.reply_to_message_id = c.string('reply_to_message_id', input.replyToMessageId, { min: 1 });
  }
  return body;
}

/** ban_user: without `duration` a permanent ban; with it a timeout of 1–10080 minutes. */
export function banBody(input: BanInput): Body {
  const c = new Checks('banUser');
  const body: Body = {
    broadcaster_user_id: c.int('broadcaster_user_id', input.broadcasterUserId, { min: 1 }),
    user_id: c.int('user_id', input.userId, { min: 1 }),
  };
  const duration = c.optionalInt('duration', input.duration, {
    min: LIMITS.banDurationMinutesMin,
    max: LIMITS.banDurationMinutesMax,
  });
  if (duration !== undefined) {
    body.duration = duration;
  }
  const reason = c.optionalString('reason', input.reason, { max: LIMITS.banReasonMax });
  if (reason !== undefined && reason.length > 0) {
    body.reason = reason;
  }
  return body;
}

/** unban_user: also lifts a timeout. Kick takes the ids in a JSON body on DELETE. */
export function unbanBody(input: { broadcasterUserId: number; userId: number }): Body {
  const c = new Checks('unbanUser');
  return {
    broadcaster_user_id: c.int('broadcaster_user_id', input.broadcasterUserId, { min: 1 }),
    user_id: c.int('user_id', input.userId, { min: 1 }),
  };
}

/** A reward's fields; `creating` requires title and cost. */
export function rewardBody(op: string, input: RewardFields, creating: boolean): Body {
  const c = new Checks(op);
  const body: Body = {};
  if (creating || input.title !== undefined) {
    body.title = c.string('title', input.title, { min: 1, max: LIMITS.rewardTitleMax });
  }
  if (creating || input.cost !== undefined) {
    body.cost = c.int('cost', input.cost, { min: LIMITS.rewardCostMin });
  }
  if (input.description !== undefined) {
    body.description = c.string('description', input.description, { max: LIMITS.rewardDescriptionMax });
  }
  if (input.backgroundColor !== undefined) {
    body.background_color = c.string('background_color', input.backgroundColor, {
      pattern: HEX_COLOUR,
      hint: `a hex colour such as ${DEFAULT_REWARD_COLOUR}`,
    });
  }
  const flags = [
    ['is_enabled', input.isEnabled],
    ['is_user_input_required', input.isUserInputRequired],
    ['should_redemptions_skip_request_queue', input.shouldRedemptionsSkipRequestQueue],
  ] as const;
  for (const [field, value] of flags) {
    const flag = c.bool(field, value);
    if (flag !== undefined) {
      body[field] = flag;
    }
  }
  return body;
}

/** update_channel_reward: at least one field; only the app that created the reward may update it. */
export function rewardUpdateBody(input: RewardFields & { isPaused?: boolean }): Body {
  const c = new Checks('updateChannelReward');
  const body = rewardBody('updateChannelReward', input, false);
  const paused = c.bool('is_paused', input.isPaused);
  if (paused !== undefined) {
    body.is_paused = paused;
  }
  if (Object.keys(body).length === 0) {
    c.fail('reward', 'give at least one field to update');
  }
  return body;
}

/** subscribe_to_event: one or more of Kick's event types, delivered by webhook. */
export function subscribeBody(input: { eventTypes: string[]; userId: number }): Body {
  const c = new Checks('subscribeToEvent');
  const types = c.list('event_type', input.eventTypes, { min: 1, unique: true }, (v, n) => {
    const type = c.string(n, v, { min: 1 });
    if (!isKickEventType(type)) {
      c.fail(n, `must be one of Kick's event types (got ${type})`);
    }
    return type;
  });
  return {
    events: types.map((name) => ({ name, version: 1 })),
    method: 'webhook',
    broadcaster_user_id: c.int('user_id', input.userId, { min: 1 }),
  };
}

/** accept/reject_reward_redemptions: 1–25 unique ids. */
export function redemptionIdsBody(op: string, ids: string[]): Body {
  const c = new Checks(op);
  const limits = { min: LIMITS.redemptionIdsPerActionMin, max: LIMITS.redemptionIdsPerActionMax, unique: true };
  return { ids: c.list('ids', ids, limits, nonEmpty(c)) };
}

/**
 * create_ad_break: 7–300 s. The id is generated once, when omitted, and every retry resends this same body,
 * so a retried request cannot start a second break. Field names are a wire
 * assumption (`wire-assumptions.ts`: Kick does not document these endpoints).
 */
export function adBreakBody(input: AdBreakInput): Body {
  const c = new Checks('createAdBreak');
  const seconds = c.int('break_duration_seconds', input.breakDurationSeconds, {
    min: LIMITS.adBreakSecondsMin,
    max: LIMITS.adBreakSecondsMax,
  });
  const id =
    input.adBreakId === undefined
      ? randomUUID()
      : c.string('ad_break_id', input.adBreakId, { pattern: UUID, hint: 'a UUID' });
  const { createIdField, createDurationField } = WIRE_ASSUMPTIONS.ads;
  return { [createIdField]: id, [createDurationField]: seconds };
}

/**
 * Kick events as the panel shows them: chat becomes a {@link ChatMessageView}, everything else a
 * {@link FeedItem} with a one-line summary ("pixelpanda gifted 5 subs"). Pure; payloads are trusted only as
 * far as their parsed types, and every nullable field Kick really sends null (anonymous gifters, absent
 * `identity`, missing `created_at`) has a readable fallback.
 */
import type { PanelKickEvent } from '../../shared/ipc-contract';
import type { ChatMessageSentPayload, KickCompactUser, KickEventUser } from '../../shared/kick/events';
import type { ChatMessageView, ChatUserView, FeedItem, FeedKind } from '../../shared/views';
import { plural } from '../../shared/plural';
import type { KickEvent } from '../webhooks/events/types';

/** Longest summary line; user input and KICK messages beyond it are cut with an ellipsis. */
export const FEED_TEXT_MAX = 280;

const ANONYMOUS = 'Someone anonymous';

type Known = Extract<KickEvent, { kind: 'known' }>;
type Summary = { kind: FeedKind; text: string; user: { id: number | null; name: string | null }; atMs?: number };

/** The panel's view of one event. */
export function toPanelEvent(event: KickEvent): PanelKickEvent {
  if (event.kind === 'known' && event.type === 'chat.message.sent') {
    return { kind: 'chat', message: toChatMessage(event.payload, eventTimeMs(event)) };
  }
  const item = toFeedItem(event);
  return item.kind === 'redemption' ? { kind: 'redemption', item } : { kind: 'feed', item };
}

/** A chat message as the panel renders it. */
export function toChatMessage(payload: ChatMessageSentPayload, fallbackAtMs: number): ChatMessageView {
  const reply = payload.replies_to ?? null;
  return {
    messageId: payload.message_id,
    content: payload.content,
    emotes: (payload.emotes ?? []).map((e) => ({ emoteId: e.emote_id, positions: e.positions })),
    sender: chatUser(payload.sender),
    replyTo: reply
      ? { messageId: reply.message_id, content: reply.content, senderUsername: reply.sender.username ?? ANONYMOUS }
      : null,
    sentAtMs: parseTime(payload.created_at) ?? fallbackAtMs,
    deleted: false,
  };
}

/** A feed entry for any event but chat (an unknown one included, so nothing Kick sends is dropped). */
export function toFeedItem(event: KickEvent): FeedItem {
  const summary = event.kind === 'known' ? summarize(event) : unknownSummary(event.type, event.version);
  const item: FeedItem = {
    id: event.messageId,
    kind: summary.kind,
    atMs: summary.atMs ?? eventTimeMs(event),
    text: oneLine(summary.text),
    userId: summary.user.id,
    username: summary.user.name,
    eventType: event.type,
  };
  if (event.kind === 'known' && event.type === 'channel.reward.redemption.updated') {
    const p = event.payload;
    // One entry per redemption, whatever message brought it: its status changes update it in place.
    item.id = redemptionItemId(p.id);
    item.redemption = {
      id: p.id,
      status: p.status,
      rewardId: p.reward.id,
      rewardTitle: p.reward.title,
      userInput: p.user_input,
    };
  }
  return item;
}

/** The feed id of a redemption's one entry. */
export function redemptionItemId(redemptionId: string): string {
  return `redemption-${redemptionId}`;
}

// --- Summaries ---

function summarize(event: Known): Summary {
  switch (event.type) {
    case 'chat.message.sent':
      return {
        kind: 'unknown',
        text: `${nameOf(event.payload.sender)}: ${event.payload.content}`,
        user: userOf(event.payload.sender),
      };
    case 'channel.followed':
      return {
        kind: 'follow',
        text: `${nameOf(event.payload.follower)} followed`,
        user: userOf(event.payload.follower),
      };
    case 'channel.subscription.new': {
      const p = event.payload;
      const text = p.duration > 1 ? `subscribed for ${months(p.duration)}` : 'subscribed';
      return {
        kind: 'subscription',
        text: `${nameOf(p.subscriber)} ${text}`,
        user: userOf(p.subscriber),
        atMs: parseTime(p.created_at),
      };
    }
    case 'channel.subscription.renewal': {
      const p = event.payload;
      return {
        kind: 'renewal',
        text: `${nameOf(p.subscriber)} renewed their sub (${months(p.duration)})`,
        user: userOf(p.subscriber),
        atMs: parseTime(p.created_at),
      };
    }
    case 'channel.subscription.gifts': {
      const p = event.payload;
      const gifter = p.gifter.is_anonymous || !p.gifter.username ? 'An anonymous gifter' : p.gifter.username;
      const only = p.giftees.length === 1 ? p.giftees[0] : undefined;
      const what = only?.username ? `a sub to ${only.username}` : plural(p.giftees.length, 'sub');
      return {
        kind: 'gifted-subs',
        text: `${gifter} gifted ${what}`,
        user: userOf(p.gifter),
        atMs: parseTime(p.created_at),
      };
    }
    case 'kicks.gifted': {
      const p = event.payload;
      const amount = plural(p.gift.amount, 'KICK');
      const name = p.gift.name ? ` (${p.gift.name})` : '';
      return {
        kind: 'kicks',
        text: `${p.sender.username} sent ${amount}${name}${quoted(p.gift.message)}`,
        user: compact(p.sender),
        atMs: parseTime(p.created_at),
      };
    }
    case 'channel.reward.redemption.updated': {
      const p = event.payload;
      return {
        kind: 'redemption',
        text: `${p.redeemer.username} redeemed ${p.reward.title || 'a reward'}${quoted(p.user_input)}`,
        user: compact(p.redeemer),
        atMs: parseTime(p.redeemed_at),
      };
    }
    case 'moderation.banned': {
      const p = event.payload;
      const createdAt = parseTime(p.metadata.created_at);
      const expiresAt = p.metadata.expires_at === null ? undefined : parseTime(p.metadata.expires_at);
      // The row is about the banned viewer (their name leads it, as a link to their card), so the line reads
      // from them: "ivory_imp was banned by sandbox_streamer", never "ivory_imp sandbox_streamer banned ivory_imp".
      const action =
        expiresAt !== undefined && createdAt !== undefined
          ? `was timed out for ${duration(expiresAt - createdAt)}`
          : 'was banned';
      return {
        kind: 'ban',
        text: `${nameOf(p.banned_user)} ${action} by ${nameOf(p.moderator)}${quoted(p.metadata.reason)}`,
        user: userOf(p.banned_user),
        atMs: createdAt,
      };
    }
    case 'livestream.status.updated': {
      const p = event.payload;
      return p.is_live
        ? { kind: 'live-status', text: `Stream went live: ${p.title}`, user: NOBODY, atMs: parseTime(p.started_at) }
        : { kind: 'live-status', text: 'Stream ended', user: NOBODY, atMs: parseTime(p.ended_at ?? undefined) };
    }
    case 'livestream.metadata.updated': {
      const m = event.payload.metadata;
      const category = m.category.name ? ` · ${m.category.name}` : '';
      return { kind: 'metadata', text: `Stream info changed: ${m.title}${category}`, user: NOBODY };
    }
  }
}

function unknownSummary(type: string, version: string): Summary {
  return {
    kind: 'unknown',
    text: `Unrecognised event ${type || '(no type)'} (version ${version || '?'})`,
    user: NOBODY,
  };
}

const NOBODY = { id: null, name: null };

// --- Helpers ---

function chatUser(user: KickEventUser): ChatUserView {
  return {
    userId: user.user_id,
    username: user.username ?? ANONYMOUS,
    color: user.identity?.username_color ?? null,
    badges: user.identity?.badges ?? [],
    isVerified: user.is_verified === true,
  };
}

function nameOf(user: KickEventUser): string {
  return user.is_anonymous || !user.username ? ANONYMOUS : user.username;
}

function userOf(user: KickEventUser): { id: number | null; name: string | null } {
  return user.is_anonymous ? NOBODY : { id: user.user_id, name: user.username };
}

function compact(user: KickCompactUser): { id: number | null; name: string | null } {
  return { id: user.user_id, name: user.username };
}

function quoted(text: string | null | undefined): string {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? '' : `: '${trimmed}'`;
}

function months(n: number): string {
  return plural(n, 'month');
}

/** "10 minutes", "1 hour", "1 day", or minutes when it is not a whole hour or day. */
export function duration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes % 1440 === 0) {
    return plural(minutes / 1440, 'day');
  }
  if (minutes % 60 === 0) {
    return plural(minutes / 60, 'hour');
  }
  return plural(minutes, 'minute');
}

/** Control characters and line breaks become spaces; long text is cut. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > FEED_TEXT_MAX ? `${chars.slice(0, FEED_TEXT_MAX - 1).join('')}…` : flat;
}

function parseTime(value: string | undefined): number | undefined {
  if (!value) {
    return undefined;
  }
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** When Kick says the event happened: the message timestamp header, else when we received it. */
function eventTimeMs(event: KickEvent): number {
  return parseTime(event.timestamp) ?? event.receivedAtMs;
}

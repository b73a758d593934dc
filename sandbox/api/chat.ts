/**
 * Chat ([reference §3.5](../../docs/kick-wire-reference.md#35-chat)): sending as the user or as the app's bot, replies, and deleting a message as its
 * channel's broadcaster or moderator. A sent message is announced as `chat.message.sent`; Kick announces
 * no deletion.
 */
import type { KickChatSendResult } from '../../shared/kick/resources';
import { LIMITS } from '../../shared/limits';
import { toRfc3339 } from '../../electron/core/clock';
import { createUuid } from '../../electron/core/ids';
import type { SandboxContext } from '../context';
import { chatMessagePayload, emitEvent } from '../events/payloads';
import type { Router } from '../http/router';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxChatMessage, SandboxState } from '../state';
import { authenticate, type UserTokenContext } from './auth-guard';
import { messageDeletedFrame } from '../live-socket/frames';
import { bodyInt, bodyString, readJsonObject } from './params';
import { fail, noContent, ok } from './respond';

const CHAT_TYPES = ['user', 'bot'] as const;

/** Registers POST `/public/v1/chat` and DELETE `/public/v1/chat/:message_id`. */
export function registerChatRoutes(router: Router, ctx: SandboxContext): void {
  router.post('/public/v1/chat', (req) => sendChat(ctx.state, req));
  router.delete('/public/v1/chat/:message_id', (req) => deleteChat(ctx.state, req));
}

/**
 * Whether the user may moderate the channel: its broadcaster, or a holder of the channel's `moderator`
 * badge (the sandbox models moderators as the badge Kick shows on their messages).
 */
export function canModerate(state: SandboxState, userId: number, broadcasterUserId: number): boolean {
  if (userId === broadcasterUserId) {
    return true;
  }
  const badges = state.user(userId)?.badges.get(broadcasterUserId) ?? [];
  return badges.some((badge) => badge.type === 'moderator');
}

// --- Send ---

interface Route {
  type: 'user' | 'bot';
  senderUserId: number;
  broadcasterUserId: number;
}

function sendChat(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const token = authenticate(state, req, { token: 'user', anyScope: ['chat:write'] });
  const body = readJsonObject(req);
  const type = bodyString(body, 'type', { required: true });
  if (!(CHAT_TYPES as readonly string[]).includes(type)) {
    fail(400, `type: must be one of ${CHAT_TYPES.join(', ')}`);
  }
  const content = bodyString(body, 'content', {
    required: true,
    minLength: 1,
    maxLength: LIMITS.chatContentMax,
    codePoints: true,
  });
  const replyTo = bodyString(body, 'reply_to_message_id', { minLength: 1 });
  const route = resolveRoute(state, token, type as Route['type'], body);

  if (replyTo !== undefined) {
    const parent = state.chatMessages.get(replyTo);
    if (!parent || parent.deleted || parent.broadcasterUserId !== route.broadcasterUserId) {
      fail(400, 'reply_to_message_id: no such message in this channel');
    }
  }
  refuseIfBanned(state, route.senderUserId, route.broadcasterUserId);

  const message: SandboxChatMessage = {
    messageId: createUuid(),
    broadcasterUserId: route.broadcasterUserId,
    senderUserId: route.senderUserId,
    content,
    type: route.type,
    replyToMessageId: replyTo ?? null,
    createdAtMs: state.now(),
    deleted: false,
  };
  state.chatMessages.set(message.messageId, message);
  emitEvent(state, 'chat.message.sent', message.broadcasterUserId, chatMessagePayload(state, message));
  const result: KickChatSendResult = { is_sent: true, message_id: message.messageId };
  return ok(result);
}

/**
 * Who speaks where ([SPEC], [reference §3.5](../../docs/kick-wire-reference.md#35-chat)): `user` posts as the token's user into `broadcaster_user_id`;
 * `bot` posts as the token's app's bot into the token user's channel, ignoring `broadcaster_user_id`.
 * An unknown channel answers exactly as KickDevDocs #143 shows.
 */
function resolveRoute(
  state: SandboxState,
  token: UserTokenContext,
  type: Route['type'],
  body: Record<string, unknown>,
): Route {
  if (type === 'user') {
    const broadcasterUserId = bodyInt(body, 'broadcaster_user_id', { required: true });
    if (!state.channels.has(broadcasterUserId)) {
      fail(400, 'Channel not found');
    }
    return { type, senderUserId: token.userId, broadcasterUserId };
  }
  if (!state.channels.has(token.userId)) {
    fail(400, 'Channel not found');
  }
  const app = state.appByClientId(token.clientId);
  if (!app) {
    fail(400, 'the app of this token has no bot account');
  }
  return { type, senderUserId: app.botUserId, broadcasterUserId: token.userId };
}

/**
 * A banned or timed-out sender is refused with 403: the request is well formed, the sender is simply not
 * permitted to speak there right now ([reference §6](../../docs/kick-wire-reference.md#6-errors-and-rate-limits): 403 is "not permitted").
 */
function refuseIfBanned(state: SandboxState, senderUserId: number, broadcasterUserId: number): void {
  const ban = state.activeBan(broadcasterUserId, senderUserId);
  if (!ban) {
    return;
  }
  if (ban.expiresAtMs === null) {
    fail(403, 'sender is banned from this channel');
  }
  fail(403, `sender is timed out in this channel until ${toRfc3339(ban.expiresAtMs)}`);
}

// --- Delete ---

function deleteChat(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const token = authenticate(state, req, { token: 'user', anyScope: ['moderation:chat_message:manage'] });
  const messageId = req.params.message_id ?? '';
  const message = state.chatMessages.get(messageId);
  if (!message || message.deleted) {
    fail(404, 'message_id: message not found');
  }
  if (!canModerate(state, token.userId, message.broadcasterUserId)) {
    fail(403, 'not the broadcaster or a moderator of the channel of this message');
  }
  message.deleted = true;
  // Kick's live socket says so at once (MessageDeletedEvent); no webhook does.
  state.emitLive(messageDeletedFrame(message.broadcasterUserId, message.messageId));
  return noContent();
}

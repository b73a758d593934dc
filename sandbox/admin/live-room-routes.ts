/**
 * The admin API's chat-room controls on Kick's live socket ([what they do](../../docs/sandbox.md#live-socket-triggers)):
 * chat modes (ChatroomUpdatedEvent), a pinned message and its removal, and a cleared chat. Kick's public API and
 * its webhooks have none of these; only the socket says them.
 */
import type { SandboxContext } from '../context';
import { chatMessagePayload } from '../events/payloads';
import type { Router } from '../http/router';
import {
  chatMessageData,
  type ChatroomModes,
  chatroomClearFrame,
  chatroomUpdatedFrame,
  pinnedCreatedFrame,
  pinnedDeletedFrame,
} from '../live-socket/frames';
import { bodyString } from '../api/params';
import { STREAMER_USER_ID } from '../world';
import { adminFail, adminOk, adminRoute, bodyInt, readAdminBody } from './admin-http';
import { requireChannel } from './generate-context';

/** A day, in seconds (slow mode) and a year, in minutes (followers-only, account age): far past Kick's own. */
const INTERVAL_SECONDS_MAX = 86_400;
const DURATION_MINUTES_MAX = 525_600;
const PIN_SECONDS_MAX = 86_400;

type ModeName = keyof ChatroomModes;
/** Each mode and its number field, if it has one, with its bound. */
const MODES: Record<ModeName, { field: string; max: number } | null> = {
  slow_mode: { field: 'message_interval', max: INTERVAL_SECONDS_MAX },
  subscribers_mode: null,
  followers_mode: { field: 'min_duration', max: DURATION_MINUTES_MAX },
  emotes_mode: null,
  account_age: { field: 'min_duration', max: DURATION_MINUTES_MAX },
};

/** The modes a body changes, checked whole before any is applied. */
function readModes(body: Record<string, unknown>): Partial<ChatroomModes> {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    if (key !== 'broadcaster_user_id' && !(key in MODES)) {
      adminFail(400, `${key}: not a chat mode; use ${Object.keys(MODES).join(', ')}`);
    }
  }
  for (const [name, number] of Object.entries(MODES) as [ModeName, { field: string; max: number } | null][]) {
    const value = body[name];
    if (value === undefined) {
      continue;
    }
    if (typeof value !== 'object' || value === null || typeof (value as { enabled?: unknown }).enabled !== 'boolean') {
      adminFail(400, `${name}.enabled: must be a boolean`);
    }
    const mode: Record<string, unknown> = { enabled: (value as { enabled: boolean }).enabled };
    if (number) {
      mode[number.field] = bodyInt(value as Record<string, unknown>, number.field, { min: 0, max: number.max }) ?? 0;
    }
    changes[name] = mode;
  }
  if (Object.keys(changes).length === 0) {
    adminFail(400, `a chat mode is required: ${Object.keys(MODES).join(', ')}`);
  }
  return changes;
}

function where(ctx: SandboxContext, body: Record<string, unknown>): number {
  const broadcasterUserId = bodyInt(body, 'broadcaster_user_id', { min: 1 }) ?? STREAMER_USER_ID;
  requireChannel(ctx.state, broadcasterUserId);
  return broadcasterUserId;
}

/** Registers the chat-room controls under `/live-socket`. */
export function registerLiveRoomAdminRoutes(router: Router, ctx: SandboxContext): void {
  router.post(
    '/live-socket/chatroom',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const broadcasterUserId = where(ctx, body);
      const changes = readModes(body);
      const modes = Object.assign(ctx.live.modesOf(broadcasterUserId), changes);
      ctx.state.emitLive(chatroomUpdatedFrame(broadcasterUserId, modes));
      return adminOk({ modes });
    }),
  );

  router.post(
    '/live-socket/pin',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const broadcasterUserId = where(ctx, body);
      const messageId = bodyString(body, 'message_id', { required: true, minLength: 1, maxLength: 64 });
      const seconds = bodyInt(body, 'duration_seconds', { min: 1, max: PIN_SECONDS_MAX }) ?? 1200;
      const message = ctx.state.chatMessages.get(messageId);
      if (!message || message.deleted || message.broadcasterUserId !== broadcasterUserId) {
        adminFail(404, `message_id: no chat message ${messageId} in this channel`);
      }
      const data = chatMessageData(broadcasterUserId, chatMessagePayload(ctx.state, message), ctx.state.now());
      const streamer = ctx.state.user(broadcasterUserId);
      const by = {
        id: broadcasterUserId,
        username: streamer?.username ?? '',
        slug: requireChannel(ctx.state, broadcasterUserId).slug,
      };
      ctx.state.emitLive(pinnedCreatedFrame(broadcasterUserId, data, seconds, by));
      return adminOk({ message_id: messageId, duration_seconds: seconds });
    }),
  );

  router.delete(
    '/live-socket/pin',
    adminRoute((req) => {
      const broadcasterUserId = where(ctx, readAdminBody(req));
      ctx.state.emitLive(pinnedDeletedFrame(broadcasterUserId));
      return adminOk({ unpinned: true });
    }),
  );

  router.post(
    '/live-socket/clear',
    adminRoute((req) => {
      const broadcasterUserId = where(ctx, readAdminBody(req));
      ctx.state.emitLive(chatroomClearFrame(broadcasterUserId));
      return adminOk({ cleared: true });
    }),
  );
}

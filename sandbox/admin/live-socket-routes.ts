/**
 * The admin API's controls for Kick's live socket ([what they do](../../docs/sandbox.md#live-socket-triggers)):
 * webhooks running behind, what discovery offers, the channel lookup behind Cloudflare, new sockets refused for
 * a while (an unreachable socket host), socket drops by
 * close code or a cut connection, an incoming host or raid, and frames with unknown fields or an unknown
 * event name.
 */
import { bodyStringArray } from '../api/params';
import { bodyString } from '../api/params';
import type { SandboxContext } from '../context';
import { chatMessagePayload } from '../events/payloads';
import type { Router } from '../http/router';
import { hostFrames } from '../live-socket/frames';
import { channelIdOf, chatroomIdOf } from '../live-socket/ids';
import {
  CONNECTIONS_MODES,
  type ConnectionsMode,
  DROP_CODES,
  type DropCode,
  LIVE_PROVIDERS,
  type LiveProvider,
} from '../live-socket/live-hub';
import type { SandboxChatMessage } from '../state';
import { TRIGGER_LIMITS } from '../triggers';
import { createUuid } from '../../electron/core/ids';
import { FIRST_OTHER_STREAMER_USER_ID, STREAMER_USER_ID } from '../world';
import { adminFail, adminOk, adminRoute, bodyInt, bodyNumber, readAdminBody } from './admin-http';
import { activeViewers, requireChannel } from './generate-context';
import { defaultRng, intBetween } from './random';

const HOST_VIEWERS_MAX = 1_000_000;
const HOST_MESSAGE_MAX = 500;

function where(ctx: SandboxContext, body: Record<string, unknown>): number {
  const broadcasterUserId = bodyInt(body, 'broadcaster_user_id', { min: 1 }) ?? STREAMER_USER_ID;
  requireChannel(ctx.state, broadcasterUserId);
  return broadcasterUserId;
}

function status(ctx: SandboxContext): Record<string, unknown> {
  return {
    ...ctx.live.describe(),
    webhook_delay_seconds: ctx.state.webhookQueueDelayMs / 1000,
    socket_url: ctx.urls.socket,
    web_url: ctx.urls.web,
    channel_id: channelIdOf(STREAMER_USER_ID),
    chatroom_id: chatroomIdOf(STREAMER_USER_ID),
  };
}

/** A viewer's chat line stored in the world (its webhook follows) whose socket frame carries unknown fields. */
function chatWithUnknownFields(ctx: SandboxContext, broadcasterUserId: number, content: string): string {
  const viewers = activeViewers(ctx.state, broadcasterUserId);
  if (viewers.length === 0) {
    adminFail(409, 'broadcaster_user_id: every viewer is banned in this channel');
  }
  const message: SandboxChatMessage = {
    messageId: createUuid(),
    broadcasterUserId,
    senderUserId: viewers[intBetween(defaultRng, 0, viewers.length - 1)]!,
    content,
    type: 'viewer',
    replyToMessageId: null,
    createdAtMs: ctx.state.now(),
    deleted: false,
  };
  ctx.state.chatMessages.set(message.messageId, message);
  ctx.state.emit({
    type: 'chat.message.sent',
    version: 1,
    broadcasterUserId,
    payload: chatMessagePayload(ctx.state, message),
    liveExtras: {
      envelope: { sandbox_envelope_extra: 'unknown to every client' },
      data: {
        sandbox_future_field: { nested: [1, 2, 3], flag: true },
        badges_v3: [{ name: 'sandbox', selected: true }],
      },
    },
  });
  return message.messageId;
}

/** Registers `/live-socket` and its controls. */
export function registerLiveSocketAdminRoutes(router: Router, ctx: SandboxContext): void {
  router.get(
    '/live-socket',
    adminRoute(() => adminOk(status(ctx))),
  );

  router.post(
    '/live-socket/settings',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const delay = bodyNumber(body, 'webhook_delay_seconds', { min: 0, max: TRIGGER_LIMITS.delaySecondsMax });
      const providers = bodyStringArray(body, 'providers', { maxItems: LIVE_PROVIDERS.length, unique: true });
      if (providers?.some((p) => !LIVE_PROVIDERS.includes(p as LiveProvider))) {
        adminFail(400, `providers: each must be one of ${LIVE_PROVIDERS.join(', ')}`);
      }
      const lookup = bodyString(body, 'lookup');
      if (lookup !== undefined && lookup !== 'answers' && lookup !== 'cloudflare') {
        adminFail(400, 'lookup: must be answers or cloudflare');
      }
      const connections = bodyString(body, 'connections');
      if (connections !== undefined && !CONNECTIONS_MODES.includes(connections as ConnectionsMode)) {
        adminFail(400, `connections: must be ${CONNECTIONS_MODES.join(' or ')}`);
      }
      // Checked whole before anything changes, so a refused call leaves every setting as it was.
      if (delay !== undefined) {
        ctx.state.webhookQueueDelayMs = Math.round(delay * 1000);
      }
      if (providers !== undefined) {
        ctx.live.providers = providers as LiveProvider[];
      }
      if (lookup !== undefined) {
        ctx.live.lookup = lookup;
      }
      if (connections !== undefined) {
        ctx.live.connections = connections as ConnectionsMode;
      }
      return adminOk(status(ctx));
    }),
  );

  router.post(
    '/live-socket/drop',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const code = body.code;
      if (!DROP_CODES.includes(code as DropCode)) {
        adminFail(400, `code: must be one of ${DROP_CODES.join(', ')}`);
      }
      const provider = bodyString(body, 'provider');
      if (provider !== undefined && !LIVE_PROVIDERS.includes(provider as LiveProvider)) {
        adminFail(400, `provider: must be one of ${LIVE_PROVIDERS.join(', ')}`);
      }
      return adminOk({ dropped: ctx.live.drop(code as DropCode, provider as LiveProvider | undefined) });
    }),
  );

  router.post(
    '/live-socket/host',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const broadcasterUserId = where(ctx, body);
      const hostName = bodyString(body, 'host_username', { minLength: 1, maxLength: 64 });
      const viewers = bodyInt(body, 'viewers', { min: 0, max: HOST_VIEWERS_MAX }) ?? intBetween(defaultRng, 5, 500);
      const message = bodyString(body, 'message', { maxLength: HOST_MESSAGE_MAX }) ?? null;
      const hostUser =
        hostName === undefined ? ctx.state.user(FIRST_OTHER_STREAMER_USER_ID) : ctx.state.userByName(hostName);
      if (!hostUser) {
        adminFail(400, `host_username: no user ${hostName}`);
      }
      const frames = hostFrames(
        broadcasterUserId,
        { userId: hostUser.userId, username: hostUser.username, viewers, message },
        ctx.state.now(),
      );
      for (const frame of frames) {
        ctx.state.emitLive(frame);
      }
      return adminOk({ host_username: hostUser.username, viewers, frames: frames.map((f) => f.event) });
    }),
  );

  router.post(
    '/live-socket/unknown-fields',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const broadcasterUserId = where(ctx, body);
      const content = bodyString(body, 'content', { minLength: 1, maxLength: 500 }) ?? 'a line from a newer Kick';
      return adminOk({ message_id: chatWithUnknownFields(ctx, broadcasterUserId, content) });
    }),
  );

  router.post(
    '/live-socket/unknown-event',
    adminRoute((req) => {
      const body = readAdminBody(req);
      const broadcasterUserId = where(ctx, body);
      const event = bodyString(body, 'event', { minLength: 1, maxLength: 128 }) ?? 'App\\Events\\SandboxFutureEvent';
      ctx.state.emitLive({
        broadcasterUserId,
        room: 'chatrooms.v2',
        event,
        data: { id: createUuid(), created_at: new Date(ctx.state.now()).toISOString(), anything: { at: 'all' } },
      });
      return adminOk({ event });
    }),
  );
}

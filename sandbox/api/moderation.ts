/**
 * Bans and timeouts ([reference §3.6](../../docs/kick-wire-reference.md#36-moderation)). POST bans or times out (announced as `moderation.banned`); DELETE,
 * with a JSON body rather than a query, lifts either. Timeouts lapse by the sandbox clock on their own
 * (`SandboxState.activeBan`).
 */
import { LIMITS } from '../../shared/limits';
import type { SandboxContext } from '../context';
import { banPayload, emitEvent } from '../events/payloads';
import type { Router } from '../http/router';
import { userUnbannedFrame } from '../live-socket/frames';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxBan, SandboxState } from '../state';
import { authenticate, type UserTokenContext } from './auth-guard';
import { canModerate } from './chat';
import { bodyInt, bodyString, readJsonObject } from './params';
import { fail, ok } from './respond';

/** Registers POST and DELETE `/public/v1/moderation/bans`. */
export function registerModerationRoutes(router: Router, ctx: SandboxContext): void {
  router.post('/public/v1/moderation/bans', (req) => banUser(ctx.state, req));
  router.delete('/public/v1/moderation/bans', (req) => unbanUser(ctx.state, req));
}

interface Target {
  token: UserTokenContext;
  body: Record<string, unknown>;
  broadcasterUserId: number;
  userId: number;
}

/** Shared by ban and unban: the token, the body, and a channel the token user may moderate. */
function readTarget(state: SandboxState, req: SandboxRequest): Target {
  const token = authenticate(state, req, { token: 'user', anyScope: ['moderation:ban'] });
  const body = readJsonObject(req);
  const broadcasterUserId = bodyInt(body, 'broadcaster_user_id', { required: true, min: 1 });
  const userId = bodyInt(body, 'user_id', { required: true, min: 1 });
  if (!state.channels.has(broadcasterUserId)) {
    fail(400, `broadcaster_user_id: channel ${broadcasterUserId} not found`);
  }
  if (!canModerate(state, token.userId, broadcasterUserId)) {
    fail(403, 'not the broadcaster or a moderator of this channel');
  }
  return { token, body, broadcasterUserId, userId };
}

function banUser(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const { token, body, broadcasterUserId, userId } = readTarget(state, req);
  const duration = bodyInt(body, 'duration', {
    min: LIMITS.banDurationMinutesMin,
    max: LIMITS.banDurationMinutesMax,
  });
  const reason = bodyString(body, 'reason', { maxLength: LIMITS.banReasonMax });
  if (userId === broadcasterUserId) {
    fail(400, 'user_id: the broadcaster cannot be banned from their own channel');
  }
  if (userId === token.userId) {
    fail(400, 'user_id: you cannot ban yourself');
  }
  // The user is named in the body, not the path, so an unknown one is a bad request (as #143 answers an
  // unknown channel in a body with 400), not a 404 for a missing resource.
  if (!state.user(userId)) {
    fail(400, `user_id: user ${userId} not found`);
  }

  const now = state.now();
  // Banning again replaces the earlier ban, so a timeout can be turned into a permanent ban or extended.
  const ban: SandboxBan = {
    broadcasterUserId,
    userId,
    moderatorUserId: token.userId,
    reason: reason ?? '',
    createdAtMs: now,
    expiresAtMs: duration === undefined ? null : now + duration * 60_000,
  };
  state.bans.set(`${broadcasterUserId}:${userId}`, ban);
  emitEvent(state, 'moderation.banned', broadcasterUserId, banPayload(state, ban));
  return ok({});
}

function unbanUser(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const { token, broadcasterUserId, userId } = readTarget(state, req);
  // activeBan drops a lapsed timeout, so "not banned" includes "the timeout already ran out".
  const ban = state.activeBan(broadcasterUserId, userId);
  if (!ban) {
    fail(400, `user_id: user ${userId} is not banned or timed out in this channel`);
  }
  state.bans.delete(`${broadcasterUserId}:${userId}`);
  // Kick has no unban webhook ([reference §5.6](../../docs/kick-wire-reference.md#56-event-catalogue)); its live socket
  // says UserUnbannedEvent ([sandbox](../../docs/sandbox.md#kicks-live-socket-in-the-sandbox)).
  const short = (id: number): { id: number; username: string; slug: string } => {
    const username = state.user(id)?.username ?? '';
    return { id, username, slug: username.replace(/_/g, '-') };
  };
  state.emitLive(userUnbannedFrame(broadcasterUserId, short(userId), short(token.userId), ban.expiresAtMs === null));
  return ok({});
}

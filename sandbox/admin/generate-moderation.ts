/**
 * A moderator banning or timing out a viewer: the ban is stored (so the chat and moderation APIs see it)
 * before `moderation.banned` is emitted.
 */
import { LIMITS } from '../../shared/limits';
import { banPayload } from '../events/payloads';
import type { SandboxBan, SandboxState } from '../state';
import { MODERATOR_USER_ID } from '../world';
import { activeViewers, chooseUser, type GenerateContext, overrideUserId, TriggerInputError } from './generate-context';
import { recentMessages } from './generate-chat';
import { readOverride } from './overrides';
import { chance, pick } from './random';
import { BAN_REASONS, TIMEOUT_MINUTES } from './vocabulary';

/** Who moderates a channel in the sandbox: its moderator when it has one, else the broadcaster. */
export function channelModerator(state: SandboxState, broadcasterUserId: number): number {
  const moderator = state.user(MODERATOR_USER_ID);
  const isModerator = moderator?.badges.get(broadcasterUserId)?.some((b) => b.type === 'moderator') ?? false;
  return isModerator ? MODERATOR_USER_ID : broadcasterUserId;
}

/**
 * `moderation.banned`: a viewer (preferably one who just chatted) is banned, or one time in three timed
 * out. Overrides steer it: `banned_user.*`, `moderator.user_id`, `metadata.reason`, and
 * `metadata.expires_at` (null for a permanent ban, an RFC 3339 time for a timeout).
 */
export function generateBan(g: GenerateContext): void {
  const now = g.state.now();
  const reason = readOverride(g.overrides, 'metadata.reason');
  if (reason !== undefined && (typeof reason !== 'string' || reason.length > LIMITS.banReasonMax)) {
    throw new TriggerInputError(
      `overrides.metadata.reason: must be a string of at most ${LIMITS.banReasonMax} characters`,
    );
  }
  const expires = readOverride(g.overrides, 'metadata.expires_at');
  let expiresAtMs: number | null;
  if (expires === null) {
    expiresAtMs = null;
  } else if (typeof expires === 'string') {
    expiresAtMs = Date.parse(expires);
    if (!Number.isFinite(expiresAtMs) || expiresAtMs <= now) {
      throw new TriggerInputError('overrides.metadata.expires_at: must be a future RFC 3339 time or null');
    }
  } else {
    expiresAtMs = chance(g.rng, 1 / 3) ? now + pick(g.rng, TIMEOUT_MINUTES) * 60_000 : null;
  }

  const active = new Set(activeViewers(g.state, g.broadcasterUserId));
  const chatters = recentMessages(g.state, g.broadcasterUserId, 50)
    .map((m) => m.senderUserId)
    .filter((id) => active.has(id));
  const moderatorUserId = overrideUserId(g, 'moderator') ?? channelModerator(g.state, g.broadcasterUserId);
  const exclude = new Set([moderatorUserId, g.broadcasterUserId]);
  const target = chooseUser(g, 'banned_user', { pool: chatters.length > 0 ? chatters : undefined, exclude });

  const ban: SandboxBan = {
    broadcasterUserId: g.broadcasterUserId,
    userId: target,
    moderatorUserId,
    reason: typeof reason === 'string' ? reason : pick(g.rng, BAN_REASONS),
    createdAtMs: now,
    expiresAtMs,
  };
  g.state.bans.set(`${g.broadcasterUserId}:${target}`, ban);
  g.emit('moderation.banned', banPayload(g.state, ban));
}

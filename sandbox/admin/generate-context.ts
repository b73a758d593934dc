/**
 * What an event generator works with: the channel, the trigger's overrides, a random source and a sink
 * that emits through the trigger (so overrides and delivery faults apply). Also the helpers every
 * generator needs to pick realistic users and to let overrides steer the state change itself.
 */
import type { KickBadge, KickEventPayloads } from '../../shared/kick/events';
import type { KickEventType } from '../../shared/kick/scopes';
import type { SandboxContext } from '../context';
import type { SandboxChannel, SandboxState, SandboxUser } from '../state';
import { viewerIds } from '../world';
import { type Overrides, readOverride } from './overrides';
import { pick, type Rng } from './random';

/** Bad trigger or admin input; `message` names the field (the admin API answers it as a 400). */
export class TriggerInputError extends Error {
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.name = 'TriggerInputError';
    this.status = status;
  }
}

/** Everything one generated event needs. */
export interface GenerateContext {
  ctx: SandboxContext;
  state: SandboxState;
  channel: SandboxChannel;
  broadcasterUserId: number;
  overrides: Overrides;
  rng: Rng;
  /** Emits one event through the trigger's sink. */
  emit<T extends KickEventType>(type: T, payload: KickEventPayloads[T]): void;
  /**
   * The state as seen by code that emits on its own (`redeemReward`): reads and writes reach the real
   * state, but `emit` goes through the trigger's sink.
   */
  sinkState: SandboxState;
}

/** The channel of a broadcaster, or an input error naming the field (400 for a body field, 404 for a path). */
export function requireChannel(
  state: SandboxState,
  broadcasterUserId: number,
  field = 'broadcaster_user_id',
  status = 400,
): SandboxChannel {
  const channel = state.channels.get(broadcasterUserId);
  if (!channel) {
    throw new TriggerInputError(`${field}: no channel for broadcaster ${broadcasterUserId}`, status);
  }
  return channel;
}

/** Viewers who may act in the channel now (not banned or timed out there). */
export function activeViewers(state: SandboxState, broadcasterUserId: number): number[] {
  return viewerIds(state).filter((id) => id !== broadcasterUserId && !state.activeBan(broadcasterUserId, id));
}

/**
 * The user an override names for `role` (`sender.user_id` or `sender.username`), if any. An id that no
 * user has is still honoured (the payload then shows Kick's fallback user), a username must exist.
 */
export function overrideUserId(g: GenerateContext, role: string): number | undefined {
  const id = readOverride(g.overrides, `${role}.user_id`);
  if (typeof id === 'number' && Number.isInteger(id)) {
    return id;
  }
  const name = readOverride(g.overrides, `${role}.username`);
  if (typeof name === 'string') {
    return g.state.userByName(name)?.userId;
  }
  return undefined;
}

/**
 * Picks the acting user for `role`: the one the overrides name, else a random active viewer from `pool`
 * (all active viewers by default) that `exclude` does not hold.
 */
export function chooseUser(
  g: GenerateContext,
  role: string,
  options: { pool?: number[]; exclude?: ReadonlySet<number> } = {},
): number {
  const named = overrideUserId(g, role);
  if (named !== undefined) {
    return named;
  }
  const everyone = activeViewers(g.state, g.broadcasterUserId);
  const pool = (options.pool ?? everyone).filter((id) => !options.exclude?.has(id));
  if (pool.length > 0) {
    return pick(g.rng, pool);
  }
  if (everyone.length > 0) {
    return pick(g.rng, everyone);
  }
  throw new TriggerInputError(`${role}: every viewer is banned in channel ${g.broadcasterUserId}`, 409);
}

/** A string override at `path` when it is one; `fallback` otherwise. */
export function overrideString(g: GenerateContext, path: string, fallback: string): string {
  const value = readOverride(g.overrides, path);
  return typeof value === 'string' ? value : fallback;
}

/** A number override at `path` when it is one; `fallback` otherwise. */
export function overrideNumber(g: GenerateContext, path: string, fallback: number): number {
  const value = readOverride(g.overrides, path);
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Sets (or replaces, by type) a badge on a user in one channel, as a sub or a gift would. */
export function setBadge(user: SandboxUser | undefined, broadcasterUserId: number, badge: KickBadge): void {
  if (!user) {
    return;
  }
  const badges = (user.badges.get(broadcasterUserId) ?? []).filter((b) => b.type !== badge.type);
  user.badges.set(broadcasterUserId, [...badges, badge]);
}

/** The counted badge of a type a user holds in a channel (0 when none). */
export function badgeCount(user: SandboxUser | undefined, broadcasterUserId: number, type: string): number {
  const badge = user?.badges.get(broadcasterUserId)?.find((b) => b.type === type);
  return badge ? (badge.count ?? 1) : 0;
}

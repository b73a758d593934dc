/**
 * `GET /public/v1/kicks/leaderboard` ([reference §3.8](../../docs/kick-wire-reference.md#38-kicks)): the token broadcaster's top KICKs gifters over
 * their lifetime, the current calendar month and the current week, computed from the gifts in state.
 */
import type { KickLeaderboard, KickLeaderboardEntry } from '../../shared/kick/resources';
import { LIMITS } from '../../shared/limits';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxKicksGift, SandboxState } from '../state';
import { authenticate } from './auth-guard';
import { queryInt } from './params';
import { ok } from './respond';

const DAY_MS = 86_400_000;

/** Registers the leaderboard route. */
export function registerKicksRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/public/v1/kicks/leaderboard', (req) => {
    const token = authenticate(ctx.state, req, { token: 'user', anyScope: ['kicks:read'] });
    const top =
      queryInt(req, 'top', { min: LIMITS.leaderboardTopMin, max: LIMITS.leaderboardTopMax }) ??
      LIMITS.leaderboardTopDefault;
    const now = ctx.state.now();
    const gifts = ctx.state.kicksGifts.filter((g) => g.broadcasterUserId === token.userId && g.createdAtMs <= now);
    const leaderboard: KickLeaderboard = {
      lifetime: rank(ctx.state, gifts, top),
      month: rank(
        ctx.state,
        gifts.filter((g) => g.createdAtMs >= startOfUtcMonth(now)),
        top,
      ),
      week: rank(
        ctx.state,
        gifts.filter((g) => g.createdAtMs >= startOfUtcIsoWeek(now)),
        top,
      ),
    };
    return ok(leaderboard);
  });
}

/**
 * Totals per gifter, largest first; ties go to the lower user id so the order is stable. Ranks are 1-based
 * and consecutive (Kick's leaderboard shows no shared places).
 */
function rank(state: SandboxState, gifts: SandboxKicksGift[], top: number): KickLeaderboardEntry[] {
  const totals = new Map<number, number>();
  for (const gift of gifts) {
    totals.set(gift.senderUserId, (totals.get(gift.senderUserId) ?? 0) + gift.amount);
  }
  return [...totals]
    .sort(([idA, a], [idB, b]) => b - a || idA - idB)
    .slice(0, top)
    .map(([userId, amount], i) => ({
      user_id: userId,
      username: state.user(userId)?.username ?? `user${userId}`,
      gifted_amount: amount,
      rank: i + 1,
    }));
}

/** 00:00 UTC on the first day of the month containing `ms`. */
function startOfUtcMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/**
 * 00:00 UTC on the Monday of the ISO week containing `ms`. "Week" is a calendar week, like "month" is a
 * calendar month, so both boards reset at a boundary rather than sliding.
 */
function startOfUtcIsoWeek(ms: number): number {
  const d = new Date(ms);
  const daysSinceMonday = (d.getUTCDay() + 6) % 7;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - daysSinceMonday * DAY_MS;
}

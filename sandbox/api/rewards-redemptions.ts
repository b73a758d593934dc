/**
 * Reward redemptions on api.kick.com ([reference §3.7](../../docs/kick-wire-reference.md#37-channel-rewards), [seed §4.2](../../docs/product-spec.md#42-logical-operations)): the paginated listing grouped by reward,
 * and accept/reject, which answer with the failures only (`[]` when every id succeeded).
 */
import type {
  KickRedemption,
  KickRedemptionFailure,
  KickRedemptionFailureReason,
  KickRedemptionGroup,
  KickRedemptionStatus,
} from '../../shared/kick/resources';
import { LIMITS } from '../../shared/limits';
import { toRfc3339 } from '../../electron/core/clock';
import { isUlid } from '../../electron/core/ids';
import type { SandboxContext } from '../context';
import { emitEvent, redemptionPayload } from '../events/payloads';
import type { Router } from '../http/router';
import type { SandboxRequest } from '../http/types';
import type { SandboxRedemption, SandboxState } from '../state';
import { authenticate, type UserTokenContext } from './auth-guard';
import { bodyStringArray, queryStrings, readJsonObject } from './params';
import { fail, ok, paged } from './respond';
import { REWARDS_READ_SCOPES, REWARDS_WRITE_SCOPES } from './rewards-fields';
import { compareRedemptions, decodeRedemptionCursor, encodeRedemptionCursor } from './rewards-cursor';

const REDEMPTIONS_PATH = '/public/v1/channels/rewards/redemptions';

/** Redemptions per page. Kick does not document its page size or a `limit` param; 25 is the sandbox's. */
export const REDEMPTIONS_PAGE_SIZE = 25;

const STATUSES: readonly KickRedemptionStatus[] = ['pending', 'accepted', 'rejected'];

/** Registers the listing and the accept/reject routes. */
export function registerRedemptionRoutes(router: Router, ctx: SandboxContext): void {
  const { state } = ctx;

  router.get(REDEMPTIONS_PATH, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: REWARDS_READ_SCOPES });
    const matches = filterRedemptions(state, token.userId, req);
    const page = matches.slice(0, REDEMPTIONS_PAGE_SIZE);
    const last = page.at(-1);
    const nextCursor = matches.length > page.length && last ? encodeRedemptionCursor(last) : null;
    return paged(groupByReward(state, token, page), nextCursor);
  });

  router.post(`${REDEMPTIONS_PATH}/accept`, (req) => decide(state, req, 'accepted'));
  router.post(`${REDEMPTIONS_PATH}/reject`, (req) => decide(state, req, 'rejected'));
}

/** The token channel's redemptions matching the query, sorted oldest first, starting after the cursor. */
function filterRedemptions(state: SandboxState, broadcasterUserId: number, req: SandboxRequest): SandboxRedemption[] {
  const ids = queryStrings(req, 'id', { maxItems: LIMITS.redemptionIdFilterMax });
  for (const id of ids) {
    if (!isUlid(id)) {
      fail(400, 'id: must be a ULID');
    }
  }
  const rewardId = nonEmptyQuery(req, 'reward_id');
  const status = nonEmptyQuery(req, 'status');
  const cursorRaw = nonEmptyQuery(req, 'cursor');

  // [Seed §4.2](../../docs/product-spec.md#42-logical-operations) precondition 3: `id` cannot be combined with the other filters.
  const combined = [rewardId === undefined ? null : 'reward_id', status === undefined ? null : 'status'];
  const others = combined.filter((name): name is string => name !== null);
  if (ids.length > 0 && others.length > 0) {
    fail(400, `id: cannot be combined with ${others.join(' or ')}`);
  }
  if (rewardId !== undefined && !isUlid(rewardId)) {
    fail(400, 'reward_id: must be a ULID');
  }
  if (status !== undefined && !STATUSES.includes(status as KickRedemptionStatus)) {
    fail(400, `status: must be one of ${STATUSES.join(', ')}`);
  }
  const cursor = cursorRaw === undefined ? undefined : decodeRedemptionCursor(cursorRaw);

  const wanted = new Set(ids);
  const effectiveStatus = status ?? 'pending';
  return [...state.redemptions.values()]
    .filter((r) => {
      if (r.broadcasterUserId !== broadcasterUserId) {
        return false;
      }
      // With `id`, every status matches: the caller asked for those redemptions by name.
      if (wanted.size > 0) {
        return wanted.has(r.id);
      }
      return r.status === effectiveStatus && (rewardId === undefined || r.rewardId === rewardId);
    })
    .sort(compareRedemptions)
    .filter((r) => cursor === undefined || compareRedemptions(r, cursor) > 0);
}

/** A query value, treating an empty `?key=` as absent. */
function nonEmptyQuery(req: SandboxRequest, key: string): string | undefined {
  const value = req.query.get(key);
  return value === null || value === '' ? undefined : value;
}

/** One entry per reward, in the order each reward first appears on the page. */
function groupByReward(state: SandboxState, token: UserTokenContext, page: SandboxRedemption[]): KickRedemptionGroup[] {
  const groups = new Map<string, KickRedemptionGroup>();
  for (const redemption of page) {
    let group = groups.get(redemption.rewardId);
    if (!group) {
      const reward = state.rewards.get(redemption.rewardId);
      group = {
        reward: {
          id: redemption.rewardId,
          title: reward?.title ?? '',
          description: reward?.description ?? '',
          cost: reward?.cost ?? 0,
          can_manage: reward?.createdByClientId === token.clientId,
          is_deleted: reward?.deleted ?? true,
        },
        redemptions: [],
      };
      groups.set(redemption.rewardId, group);
    }
    group.redemptions.push(toWireRedemption(redemption));
  }
  return [...groups.values()];
}

function toWireRedemption(redemption: SandboxRedemption): KickRedemption {
  return {
    id: redemption.id,
    redeemed_at: toRfc3339(redemption.redeemedAtMs),
    redeemer: { user_id: redemption.redeemerUserId },
    status: redemption.status,
    user_input: redemption.userInput,
  };
}

/** Accept or reject: each id is processed on its own; only the ones that could not be are reported. */
function decide(state: SandboxState, req: SandboxRequest, status: 'accepted' | 'rejected') {
  const token = authenticate(state, req, { token: 'user', anyScope: REWARDS_WRITE_SCOPES });
  const ids =
    bodyStringArray(readJsonObject(req), 'ids', {
      required: true,
      minItems: LIMITS.redemptionIdsPerActionMin,
      maxItems: LIMITS.redemptionIdsPerActionMax,
      unique: true,
    }) ?? [];
  const failures: KickRedemptionFailure[] = [];
  for (const id of ids) {
    const reason = decideOne(state, token, id, status);
    if (reason) {
      failures.push({ id, reason });
    }
  }
  return ok(failures);
}

function decideOne(
  state: SandboxState,
  token: UserTokenContext,
  id: string,
  status: 'accepted' | 'rejected',
): KickRedemptionFailureReason | null {
  const redemption = state.redemptions.get(id);
  // Another channel's redemption is NOT_FOUND, so ids cannot be probed across channels.
  if (!redemption || redemption.broadcasterUserId !== token.userId) {
    return 'NOT_FOUND';
  }
  const reward = state.rewards.get(redemption.rewardId);
  // A redemption whose reward record is gone cannot be classified: Kick's catch-all reason.
  if (!reward) {
    return 'UNKNOWN';
  }
  if (reward.createdByClientId !== token.clientId) {
    return 'NOT_OWNED';
  }
  if (redemption.status !== 'pending') {
    return 'NOT_PENDING';
  }
  redemption.status = status;
  emitEvent(
    state,
    'channel.reward.redemption.updated',
    redemption.broadcasterUserId,
    redemptionPayload(state, redemption),
  );
  return null;
}

/**
 * Channel-point rewards on api.kick.com ([reference §3.7](../../docs/kick-wire-reference.md#37-channel-rewards), [seed §3](../../docs/product-spec.md#3-states-and-transitions), [§4.2](../../docs/product-spec.md#42-logical-operations) and [§8](../../docs/product-spec.md#8-limits)): list, create, update and
 * delete for the token user's channel. Only the app that created a reward may change or delete it; the
 * redemption routes live in `rewards-redemptions.ts` and are registered from here.
 */
import { createUlid } from '../../electron/core/ids';
import { DEFAULT_REWARD_COLOUR, LIMITS } from '../../shared/limits';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxRequest } from '../http/types';
import type { SandboxReward, SandboxState } from '../state';
import { authenticate, type UserTokenContext } from './auth-guard';
import { readJsonObject } from './params';
import { fail, noContent, ok } from './respond';
import {
  applyRewardFields,
  channelRewards,
  readRewardFields,
  REWARDS_READ_SCOPES,
  REWARDS_WRITE_SCOPES,
  toWireReward,
} from './rewards-fields';
import { registerRedemptionRoutes } from './rewards-redemptions';

const REWARDS_PATH = '/public/v1/channels/rewards';

/** Registers the reward and redemption routes. */
export function registerRewardRoutes(router: Router, ctx: SandboxContext): void {
  const { state } = ctx;

  router.get(REWARDS_PATH, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: REWARDS_READ_SCOPES });
    return ok(channelRewards(state, token.userId).map(toWireReward));
  });

  router.post(REWARDS_PATH, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: REWARDS_WRITE_SCOPES });
    const fields = readRewardFields(readJsonObject(req), 'create');
    if (channelRewards(state, token.userId).length >= LIMITS.rewardsPerChannelMax) {
      fail(
        400,
        `rewards: a channel can have at most ${LIMITS.rewardsPerChannelMax} rewards (enabled and disabled combined)`,
      );
    }
    const now = state.now();
    const reward: SandboxReward = {
      id: createUlid(now),
      broadcasterUserId: token.userId,
      createdByClientId: token.clientId,
      title: fields.title ?? '',
      description: fields.description ?? '',
      cost: fields.cost ?? LIMITS.rewardCostMin,
      backgroundColor: fields.backgroundColor ?? DEFAULT_REWARD_COLOUR,
      isEnabled: fields.isEnabled ?? true,
      isPaused: false,
      isUserInputRequired: fields.isUserInputRequired ?? false,
      shouldRedemptionsSkipRequestQueue: fields.shouldRedemptionsSkipRequestQueue ?? false,
      deleted: false,
      createdAtMs: now,
    };
    state.rewards.set(reward.id, reward);
    return ok(toWireReward(reward));
  });

  router.patch(`${REWARDS_PATH}/:id`, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: REWARDS_WRITE_SCOPES });
    const reward = ownedReward(state, token, req, 'update');
    applyRewardFields(reward, readRewardFields(readJsonObject(req), 'update'));
    return ok(toWireReward(reward));
  });

  router.delete(`${REWARDS_PATH}/:id`, (req) => {
    const token = authenticate(state, req, { token: 'user', anyScope: REWARDS_WRITE_SCOPES });
    const reward = ownedReward(state, token, req, 'delete');
    // Kept, flagged: its redemptions still list, grouped under `is_deleted: true`.
    reward.deleted = true;
    return noContent();
  });

  registerRedemptionRoutes(router, ctx);
}

/**
 * The reward named in the path, if it is live, in the token user's channel and made by the token's app.
 * Existence is checked before ownership, so another channel's reward is a 404, never a 403 that would
 * confirm it exists.
 */
function ownedReward(
  state: SandboxState,
  token: UserTokenContext,
  req: SandboxRequest,
  action: 'update' | 'delete',
): SandboxReward {
  const reward = state.rewards.get(req.params.id ?? '');
  if (!reward || reward.deleted || reward.broadcasterUserId !== token.userId) {
    fail(404, 'id: no reward with this id in your channel');
  }
  if (reward.createdByClientId !== token.clientId) {
    fail(403, `only the app that created the reward can ${action} it`);
  }
  return reward;
}

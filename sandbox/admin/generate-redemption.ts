/**
 * A viewer redeeming a channel-point reward, through `redeemReward` (the same checks and event as any
 * redemption). When the channel has no reward a viewer could redeem, the sandbox creates one owned by the
 * app, as a streamer would have set up in Greenroom first.
 */
import { DEFAULT_REWARD_COLOUR, LIMITS } from '../../shared/limits';
import { createUlid } from '../../electron/core/ids';
import { channelRewards } from '../api/rewards-fields';
import { RedeemError, type RedeemErrorCode, redeemReward } from '../api/rewards-redeem';
import type { SandboxRedemption, SandboxReward, SandboxState } from '../state';
import { chooseUser, type GenerateContext, TriggerInputError } from './generate-context';
import { readOverride } from './overrides';
import { pick, type Rng } from './random';
import { DEFAULT_REWARDS, REDEMPTION_INPUTS } from './vocabulary';

/** Rewards of a channel that a viewer can redeem right now. */
export function redeemableRewards(state: SandboxState, broadcasterUserId: number): SandboxReward[] {
  return channelRewards(state, broadcasterUserId).filter((r) => r.isEnabled && !r.isPaused);
}

/**
 * Creates the next of the sandbox's default rewards for a channel, owned by `clientId`, or returns null
 * when the channel is at Kick's reward limit or already has all of them.
 */
export function createDefaultReward(
  state: SandboxState,
  broadcasterUserId: number,
  clientId: string,
): SandboxReward | null {
  const existing = channelRewards(state, broadcasterUserId);
  if (existing.length >= LIMITS.rewardsPerChannelMax) {
    return null;
  }
  const template = DEFAULT_REWARDS.find((d) => !existing.some((r) => r.title === d.title));
  if (!template) {
    return null;
  }
  const now = state.now();
  const reward: SandboxReward = {
    id: createUlid(now),
    broadcasterUserId,
    createdByClientId: clientId,
    title: template.title,
    description: template.description,
    cost: template.cost,
    backgroundColor: DEFAULT_REWARD_COLOUR,
    isEnabled: true,
    isPaused: false,
    isUserInputRequired: template.input,
    shouldRedemptionsSkipRequestQueue: false,
    deleted: false,
    createdAtMs: now,
  };
  state.rewards.set(reward.id, reward);
  return reward;
}

/** A redeemable reward of the channel, creating a default one when there is none. */
export function ensureRedeemableReward(
  state: SandboxState,
  broadcasterUserId: number,
  clientId: string,
  rng: Rng,
): SandboxReward {
  const usable = redeemableRewards(state, broadcasterUserId);
  if (usable.length > 0) {
    return pick(rng, usable);
  }
  const created = createDefaultReward(state, broadcasterUserId, clientId);
  if (!created) {
    throw new TriggerInputError(`reward_id: channel ${broadcasterUserId} has no reward a viewer can redeem`, 409);
  }
  return created;
}

const REDEEM_STATUS: Record<RedeemErrorCode, number> = {
  REWARD_NOT_FOUND: 404,
  REWARD_DELETED: 409,
  REWARD_DISABLED: 409,
  REWARD_PAUSED: 409,
  USER_INPUT_REQUIRED: 400,
  REDEEMER_NOT_FOUND: 404,
};

const REDEEM_FIELD: Record<RedeemErrorCode, string> = {
  REWARD_NOT_FOUND: 'reward_id',
  REWARD_DELETED: 'reward_id',
  REWARD_DISABLED: 'reward_id',
  REWARD_PAUSED: 'reward_id',
  USER_INPUT_REQUIRED: 'user_input',
  REDEEMER_NOT_FOUND: 'user_id',
};

/** A viewer redeeming one reward in one channel. */
export interface ViewerRedeemInput {
  broadcasterUserId: number;
  rewardId: string;
  redeemerUserId: number;
  userInput: string;
}

/** Redeems through `redeemReward` on `state`, turning a refusal into an input error naming the field. */
export function redeemAsViewer(state: SandboxState, input: ViewerRedeemInput): SandboxRedemption {
  const reward = state.rewards.get(input.rewardId);
  if (reward && reward.broadcasterUserId !== input.broadcasterUserId) {
    throw new TriggerInputError(`reward_id: reward ${input.rewardId} belongs to another channel`, 404);
  }
  try {
    return redeemReward(state, {
      rewardId: input.rewardId,
      redeemerUserId: input.redeemerUserId,
      userInput: input.userInput,
    });
  } catch (error) {
    if (error instanceof RedeemError) {
      throw new TriggerInputError(`${REDEEM_FIELD[error.code]}: ${error.message}`, REDEEM_STATUS[error.code]);
    }
    throw error;
  }
}

/** Input a viewer would type: rewards that ask for it get some, others none (kick.com shows no box). */
export function generateUserInput(rng: Rng, reward: SandboxReward): string {
  return reward.isUserInputRequired ? pick(rng, REDEMPTION_INPUTS) : '';
}

/**
 * `channel.reward.redemption.updated` for a new redemption (pending unless the reward skips the queue).
 * Overrides `reward.id`, `redeemer.user_id`/`username` and `user_input` steer the redemption itself.
 */
export function generateRedemption(g: GenerateContext): void {
  const rewardOverride = readOverride(g.overrides, 'reward.id');
  const reward =
    typeof rewardOverride === 'string'
      ? g.state.rewards.get(rewardOverride)
      : ensureRedeemableReward(g.state, g.broadcasterUserId, g.ctx.app.clientId, g.rng);
  const rewardId = typeof rewardOverride === 'string' ? rewardOverride : reward!.id;
  const input = readOverride(g.overrides, 'user_input');
  redeemAsViewer(g.sinkState, {
    broadcasterUserId: g.broadcasterUserId,
    rewardId,
    redeemerUserId: chooseUser(g, 'redeemer'),
    userInput: typeof input === 'string' ? input : reward ? generateUserInput(g.rng, reward) : '',
  });
}

/**
 * A viewer redeeming a channel-point reward. Kick's public API has no endpoint for this (viewers redeem on
 * kick.com), so the sandbox's admin triggers call `redeemReward` to stand in for the viewer.
 */
import { createUlid } from '../../electron/core/ids';
import { emitEvent, redemptionPayload } from '../events/payloads';
import type { SandboxRedemption, SandboxState } from '../state';

/** Why a viewer could not redeem; stable values the admin API can pass on. */
export type RedeemErrorCode =
  | 'REWARD_NOT_FOUND'
  | 'REWARD_DELETED'
  | 'REWARD_DISABLED'
  | 'REWARD_PAUSED'
  | 'USER_INPUT_REQUIRED'
  | 'REDEEMER_NOT_FOUND';

/** Thrown by `redeemReward` when kick.com would refuse the redemption. */
export class RedeemError extends Error {
  readonly code: RedeemErrorCode;

  constructor(code: RedeemErrorCode, message: string) {
    super(message);
    this.name = 'RedeemError';
    this.code = code;
  }
}

export interface RedeemInput {
  rewardId: string;
  /** Must be a known sandbox user (viewers start at FIRST_VIEWER_USER_ID). */
  redeemerUserId: number;
  /** Required (non-blank) when the reward asks for input; dropped when it does not, as kick.com shows no box. */
  userInput?: string;
}

/**
 * Creates a redemption as kick.com does when a viewer redeems: the reward must exist, be enabled, not paused
 * and not deleted, and carry input when it asks for some. It is `accepted` at once when the reward skips the
 * request queue, else `pending`. Emits `channel.reward.redemption.updated` with the new redemption.
 *
 * @throws RedeemError when any of those checks fails; nothing is stored or emitted then.
 */
export function redeemReward(state: SandboxState, input: RedeemInput): SandboxRedemption {
  const reward = state.rewards.get(input.rewardId);
  if (!reward) {
    throw new RedeemError('REWARD_NOT_FOUND', `no reward with id ${input.rewardId}`);
  }
  if (reward.deleted) {
    throw new RedeemError('REWARD_DELETED', 'the reward has been deleted');
  }
  if (!reward.isEnabled) {
    throw new RedeemError('REWARD_DISABLED', 'the reward is disabled');
  }
  if (reward.isPaused) {
    throw new RedeemError('REWARD_PAUSED', 'the reward is paused');
  }
  if (!state.user(input.redeemerUserId)) {
    throw new RedeemError('REDEEMER_NOT_FOUND', `no user with id ${input.redeemerUserId}`);
  }
  const userInput = reward.isUserInputRequired ? (input.userInput ?? '') : '';
  if (reward.isUserInputRequired && userInput.trim().length === 0) {
    throw new RedeemError('USER_INPUT_REQUIRED', 'the reward requires user input');
  }
  const now = state.now();
  const redemption: SandboxRedemption = {
    id: createUlid(now),
    rewardId: reward.id,
    broadcasterUserId: reward.broadcasterUserId,
    redeemerUserId: input.redeemerUserId,
    userInput,
    status: reward.shouldRedemptionsSkipRequestQueue ? 'accepted' : 'pending',
    redeemedAtMs: now,
  };
  state.redemptions.set(redemption.id, redemption);
  emitEvent(
    state,
    'channel.reward.redemption.updated',
    redemption.broadcasterUserId,
    redemptionPayload(state, redemption),
  );
  return redemption;
}

/**
 * Channel-point reward fields ([reference §3.7](../../docs/kick-wire-reference.md#37-channel-rewards), [seed §2](../../docs/product-spec.md#2-resources-and-their-fields) and [§8](../../docs/product-spec.md#8-limits)): reading them from create and update bodies
 * with Kick's limits, and the Reward object Kick answers with.
 */
import type { KickReward } from '../../shared/kick/resources';
import { HEX_COLOUR, LIMITS } from '../../shared/limits';
import type { SandboxReward, SandboxState } from '../state';
import { bodyBool, bodyInt, bodyString } from './params';
import { fail } from './respond';

/** `channel:rewards:write` also covers reads ([reference §2.5](../../docs/kick-wire-reference.md#25-scopes)). */
export const REWARDS_READ_SCOPES = ['channel:rewards:read', 'channel:rewards:write'] as const;
/** Creating, changing and deleting rewards, and accepting or rejecting redemptions. */
export const REWARDS_WRITE_SCOPES = ['channel:rewards:write'] as const;

/** The reward fields a body sets; `undefined` means "not sent" (PATCH changes only what is sent). */
export interface RewardFields {
  title?: string;
  description?: string;
  cost?: number;
  backgroundColor?: string;
  isEnabled?: boolean;
  isPaused?: boolean;
  isUserInputRequired?: boolean;
  shouldRedemptionsSkipRequestQueue?: boolean;
}

/** Wire names of the fields PATCH accepts, in the order the "send at least one" error lists them. */
const UPDATE_FIELDS = [
  'title',
  'cost',
  'description',
  'background_color',
  'is_enabled',
  'is_paused',
  'is_user_input_required',
  'should_redemptions_skip_request_queue',
] as const;

/**
 * Reads reward fields from a JSON body. `create` makes `title` and `cost` required and ignores
 * `is_paused`, which the create operation does not take ([seed §4.2](../../docs/product-spec.md#42-logical-operations)); unknown keys are ignored, as Kick's
 * JSON decoding does.
 */
export function readRewardFields(body: Record<string, unknown>, mode: 'create' | 'update'): RewardFields {
  const required = mode === 'create';
  const fields: RewardFields = {
    title: bodyString(body, 'title', { required, minLength: 1, maxLength: LIMITS.rewardTitleMax }),
    cost: bodyInt(body, 'cost', { required, min: LIMITS.rewardCostMin }),
    description: bodyString(body, 'description', { maxLength: LIMITS.rewardDescriptionMax }),
    backgroundColor: bodyString(body, 'background_color', {
      pattern: HEX_COLOUR,
      patternHint: 'a hex colour (#rgb or #rrggbb)',
    }),
    isEnabled: bodyBool(body, 'is_enabled'),
    isUserInputRequired: bodyBool(body, 'is_user_input_required'),
    shouldRedemptionsSkipRequestQueue: bodyBool(body, 'should_redemptions_skip_request_queue'),
  };
  if (mode === 'update') {
    fields.isPaused = bodyBool(body, 'is_paused');
    if (Object.values(fields).every((v) => v === undefined)) {
      fail(400, `request body: send at least one of ${UPDATE_FIELDS.join(', ')}`);
    }
  }
  return fields;
}

/** Copies the fields that were sent onto a stored reward. */
export function applyRewardFields(reward: SandboxReward, fields: RewardFields): void {
  if (fields.title !== undefined) {
    reward.title = fields.title;
  }
  if (fields.description !== undefined) {
    reward.description = fields.description;
  }
  if (fields.cost !== undefined) {
    reward.cost = fields.cost;
  }
  if (fields.backgroundColor !== undefined) {
    reward.backgroundColor = fields.backgroundColor;
  }
  if (fields.isEnabled !== undefined) {
    reward.isEnabled = fields.isEnabled;
  }
  if (fields.isPaused !== undefined) {
    reward.isPaused = fields.isPaused;
  }
  if (fields.isUserInputRequired !== undefined) {
    reward.isUserInputRequired = fields.isUserInputRequired;
  }
  if (fields.shouldRedemptionsSkipRequestQueue !== undefined) {
    reward.shouldRedemptionsSkipRequestQueue = fields.shouldRedemptionsSkipRequestQueue;
  }
}

/** The Reward object of [reference §3.7](../../docs/kick-wire-reference.md#37-channel-rewards). */
export function toWireReward(reward: SandboxReward): KickReward {
  return {
    id: reward.id,
    title: reward.title,
    description: reward.description,
    cost: reward.cost,
    background_color: reward.backgroundColor,
    is_enabled: reward.isEnabled,
    is_paused: reward.isPaused,
    is_user_input_required: reward.isUserInputRequired,
    should_redemptions_skip_request_queue: reward.shouldRedemptionsSkipRequestQueue,
  };
}

/** A channel's rewards that still exist (deleted ones stay in state for their redemptions), oldest first. */
export function channelRewards(state: SandboxState, broadcasterUserId: number): SandboxReward[] {
  return [...state.rewards.values()].filter((r) => r.broadcasterUserId === broadcasterUserId && !r.deleted);
}

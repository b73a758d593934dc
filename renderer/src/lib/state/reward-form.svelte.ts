/**
 * The reward form with Kick's limits (title ≤ 50, description ≤ 200, cost ≥ 1, hex colour) checked as the
 * streamer types, so the request main sends is one Kick accepts. Fields are public `$state` because the
 * form binds them two-way.
 */
import { countCodePoints, DEFAULT_REWARD_COLOUR, HEX_COLOUR, LIMITS } from '../../../../shared/limits';
import type { KickReward } from '../../../../shared/kick/resources';

export interface RewardFormErrors {
  title?: string;
  description?: string;
  cost?: string;
  backgroundColor?: string;
}

/** Create arguments as the contract takes them. */
export interface RewardFields {
  title: string;
  description: string;
  cost: number;
  backgroundColor: string;
  isEnabled: boolean;
  isUserInputRequired: boolean;
  shouldRedemptionsSkipRequestQueue: boolean;
}

/** A draft reward, new or edited. */
export class RewardFormState {
  readonly original: KickReward | null;
  title = $state('');
  description = $state('');
  cost = $state<number | null>(100);
  backgroundColor = $state<string>(DEFAULT_REWARD_COLOUR);
  isEnabled = $state(true);
  isUserInputRequired = $state(false);
  shouldRedemptionsSkipRequestQueue = $state(false);

  readonly titleLength = $derived(countCodePoints(this.title.trim()));
  readonly descriptionLength = $derived(countCodePoints(this.description));

  readonly errors: RewardFormErrors = $derived.by(() => {
    const e: RewardFormErrors = {};
    if (this.titleLength === 0) {
      e.title = 'Title: required.';
    } else if (this.titleLength > LIMITS.rewardTitleMax) {
      e.title = `Title: at most ${LIMITS.rewardTitleMax} characters (now ${this.titleLength}).`;
    }
    if (this.descriptionLength > LIMITS.rewardDescriptionMax) {
      e.description = `Description: at most ${LIMITS.rewardDescriptionMax} characters (now ${this.descriptionLength}).`;
    }
    if (this.cost === null || !Number.isInteger(this.cost) || this.cost < LIMITS.rewardCostMin) {
      e.cost = `Cost: a whole number of at least ${LIMITS.rewardCostMin}.`;
    }
    if (!HEX_COLOUR.test(this.backgroundColor)) {
      e.backgroundColor = 'Colour: a hex colour such as #00e701.';
    }
    return e;
  });
  readonly valid = $derived(Object.keys(this.errors).length === 0);

  constructor(original: KickReward | null = null) {
    this.original = original;
    if (original) {
      this.title = original.title;
      this.description = original.description;
      this.cost = original.cost;
      this.backgroundColor = original.background_color;
      this.isEnabled = original.is_enabled;
      this.isUserInputRequired = original.is_user_input_required;
      this.shouldRedemptionsSkipRequestQueue = original.should_redemptions_skip_request_queue;
    }
  }

  /** All fields, for create. */
  fields(): RewardFields {
    return {
      title: this.title.trim(),
      description: this.description,
      cost: this.cost ?? 0,
      backgroundColor: this.backgroundColor,
      isEnabled: this.isEnabled,
      isUserInputRequired: this.isUserInputRequired,
      shouldRedemptionsSkipRequestQueue: this.shouldRedemptionsSkipRequestQueue,
    };
  }

  /** Only the fields that changed, for update. */
  patch(): Partial<RewardFields> {
    const f = this.fields();
    const o = this.original;
    if (!o) {
      return f;
    }
    const p: Partial<RewardFields> = {};
    if (f.title !== o.title) {
      p.title = f.title;
    }
    if (f.description !== o.description) {
      p.description = f.description;
    }
    if (f.cost !== o.cost) {
      p.cost = f.cost;
    }
    if (f.backgroundColor.toLowerCase() !== o.background_color.toLowerCase()) {
      p.backgroundColor = f.backgroundColor;
    }
    if (f.isEnabled !== o.is_enabled) {
      p.isEnabled = f.isEnabled;
    }
    if (f.isUserInputRequired !== o.is_user_input_required) {
      p.isUserInputRequired = f.isUserInputRequired;
    }
    if (f.shouldRedemptionsSkipRequestQueue !== o.should_redemptions_skip_request_queue) {
      p.shouldRedemptionsSkipRequestQueue = f.shouldRedemptionsSkipRequestQueue;
    }
    return p;
  }
}

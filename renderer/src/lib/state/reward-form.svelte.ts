/**
 * The reward form with Kick's limits (title ≤ 50, description ≤ 200, cost ≥ 1, hex colour) checked as the
 * streamer types, so the request main sends is one Kick accepts. Fields are public `$state` because the
 * form binds them two-way.
 */
import { countCodePoints, DEFAULT_REWARD_COLOUR, HEX_COLOUR, LIMITS } from '../../../../shared/limits';
import type { ErrorValue } from '../../../../shared/errors';
import type { KickReward } from '../../../../shared/kick/resources';
import type { ShownError } from '../error-text';
import { type FieldErrors, saveRefusal } from '../field-errors';

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

type Checked = keyof RewardFormErrors;
const CHECKED: readonly Checked[] = ['title', 'description', 'cost', 'backgroundColor'];
/** Where a refusal may name each field: the contract's argument, an edit's patch, Kick's wire name. */
const PATHS: Record<Checked, string[]> = {
  title: ['title', 'patch.title'],
  description: ['description', 'patch.description'],
  cost: ['cost', 'patch.cost'],
  backgroundColor: ['backgroundColor', 'patch.backgroundColor', 'background_color'],
};

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

  /** What main or Kick refused on the last Save, and the values sent then; shown until the field changes. */
  #refused = $state.raw<{ fields: FieldErrors; sent: Record<Checked, unknown> } | null>(null);

  readonly errors: RewardFormErrors = $derived.by(() => {
    const e: RewardFormErrors = {};
    const refused = this.#refused;
    for (const key of refused ? CHECKED : []) {
      const reason = PATHS[key].map((path) => refused!.fields.at(path)).find((r) => r !== null);
      if (reason && refused!.sent[key] === this[key]) {
        e[key] = reason;
      }
    }
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

  /**
   * A refused Save: each refused field shows the reason beside it, and the form's top says nothing changed
   * ([When a save is refused](../../../../docs/settings.md#when-a-save-is-refused)). Null when the refusal
   * names no field (the caller shows its plain words).
   */
  refuse(error: ErrorValue): ShownError | null {
    const refusal = saveRefusal(error, 'the reward', 'Nothing was changed on Kick.');
    this.#refused = refusal && {
      fields: refusal.fields,
      sent: {
        title: this.title,
        description: this.description,
        cost: this.cost,
        backgroundColor: this.backgroundColor,
      },
    };
    return refusal?.summary ?? null;
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

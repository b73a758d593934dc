import { describe, expect, it } from 'vitest';
import { RewardFormState } from '../../../../../renderer/src/lib/state/reward-form.svelte';
import { checkInvoke } from '../../../../../shared/validate-message';

describe('RewardFormState.refuse', () => {
  it('marks the field main refused beside it until it changes, with the plain summary on top', () => {
    const form = new RewardFormState();
    form.title = 'Hydrate';
    // A colour the contract refuses, as main answers the panel's Save.
    form.backgroundColor = '#00e701';
    const checked = checkInvoke('rewards:create', [{ ...form.fields(), backgroundColor: 'green' }]);
    if (checked.ok) {
      throw new Error('accepted');
    }
    form.backgroundColor = 'green';
    const summary = form.refuse(checked.error);
    expect(summary?.text).toBe(
      'Not saved: the reward. One entry was refused; the reason is beside it. Nothing was changed on Kick.',
    );
    expect(summary?.text).not.toMatch(/rewards:create|backgroundColor/);
    // The form's own check says it first; main's reason stands for a field the form does not check.
    expect(form.errors.backgroundColor).toMatch(/^Colour: a hex colour/);
    expect(form.valid).toBe(false);
  });

  it('shows a refusal of Kick’s own check by its wire name, and drops it once the field is edited', () => {
    const form = new RewardFormState();
    form.title = 'Hydrate';
    form.cost = 5;
    form.refuse({
      code: 'Validation',
      message: 'cost: must be at least 10 on this channel',
      details: { field: 'cost', limit: 'must be at least 10 on this channel' },
    });
    expect(form.errors.cost).toBe('Must be at least 10 on this channel.');
    expect(form.errors.title).toBeUndefined();
    form.cost = 10;
    expect(form.errors.cost).toBeUndefined();
    expect(form.refuse({ code: 'Network', message: 'offline' })).toBeNull();
  });
});

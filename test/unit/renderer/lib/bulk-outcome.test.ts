import { describe, expect, it } from 'vitest';
import { redemptionConfirmTitle, redemptionOutcome } from '../../../../renderer/src/lib/bulk-outcome';

describe('bulk-outcome', () => {
  it('names how many and of which reward, with the right plural', () => {
    expect(redemptionConfirmTitle('accept', 12, Array(12).fill('Hydrate'))).toBe('Accept 12 redemptions of “Hydrate”?');
    expect(redemptionConfirmTitle('reject', 1, ['Hydrate'])).toBe('Reject 1 redemption of “Hydrate”?');
    // A title with its own punctuation is quoted, so "?" never runs into it.
    expect(redemptionConfirmTitle('accept', 11, Array(11).fill('Hydrate!'))).toBe(
      'Accept 11 redemptions of “Hydrate!”?',
    );
    expect(redemptionConfirmTitle('accept', 3, ['Hydrate', 'Song', 'Hydrate'])).toBe(
      'Accept 3 redemptions of 2 rewards?',
    );
  });

  it('counts what was done and what failed, each reason once with its count', () => {
    expect(redemptionOutcome('accept', 12, [], null)).toEqual({ tone: 'ok', text: '12 accepted', details: [] });
    const mixed = redemptionOutcome('accept', 12, ['Already done elsewhere.', 'Already done elsewhere.'], null);
    expect(mixed).toEqual({ tone: 'error', text: '10 accepted, 2 failed', details: ['Already done elsewhere.'] });
    const two = redemptionOutcome('reject', 5, ['A.', 'B.', 'A.'], null);
    expect(two.text).toBe('2 rejected, 3 failed');
    expect(two.details).toEqual(['2: A.', '1: B.']);
  });

  it('says nothing was done when the whole call failed, with its reason', () => {
    const none = redemptionOutcome('reject', 3, [null, null, null], 'Kick does not have your permission.');
    expect(none).toEqual({
      tone: 'error',
      text: 'None rejected: 3 failed',
      details: ['Kick does not have your permission.'],
    });
  });
});

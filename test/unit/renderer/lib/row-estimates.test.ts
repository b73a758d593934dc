import { describe, expect, it } from 'vitest';
import { ESTIMATE_WINDOW, RowEstimates } from '../../../../renderer/src/lib/row-estimates';

describe('row height guesses learned from drawn rows', () => {
  it('guesses the fallback until a row of that kind is drawn, then its height', () => {
    const estimates = new RowEstimates(28);
    expect(estimates.estimate('line')).toBe(28);
    estimates.learn('line', 24);
    expect(estimates.estimate('line')).toBe(24);
    // Each kind learns on its own: a reply with its quote is taller than a line.
    expect(estimates.estimate('reply')).toBe(28);
    estimates.learn('reply', 39);
    expect(estimates.estimate('reply')).toBe(39);
    expect(estimates.estimate('line')).toBe(24);
  });

  it('keeps the common height when an odd row wraps, and follows a lasting change', () => {
    const estimates = new RowEstimates(28);
    for (let i = 0; i < 10; i++) {
      estimates.learn('line', 24);
    }
    estimates.learn('line', 48);
    estimates.learn('line', 72);
    expect(estimates.estimate('line')).toBe(24);
    // The panel zoomed in: from then on the lines are 30 px, and the guess follows once they are the most.
    for (let i = 0; i < ESTIMATE_WINDOW; i++) {
      estimates.learn('line', 30);
    }
    expect(estimates.estimate('line')).toBe(30);
  });

  it('does not flip on a tie, and ignores a row drawn with no height (a hidden dock)', () => {
    const estimates = new RowEstimates(28);
    estimates.learn('line', 24);
    estimates.learn('line', 26);
    expect(estimates.estimate('line')).toBe(24);
    estimates.learn('event', 0);
    estimates.learn('event', Number.NaN);
    expect(estimates.estimate('event')).toBe(28);
  });
});

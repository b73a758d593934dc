import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../shared/backoff';

describe('backoffDelay', () => {
  const tunnel = { initialMs: 1000, maxMs: 60_000, spread: 0.2 };

  it('doubles from the first delay to the cap', () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20, 5000].map((n) => backoffDelay(n, tunnel, none))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('takes at most `spread` of a delay off at random', () => {
    expect(backoffDelay(1, tunnel, () => 0.999)).toBe(800);
    expect(backoffDelay(7, tunnel, () => 0.5)).toBe(54_000);
    const equal = { initialMs: 500, maxMs: 15_000, spread: 0.5 };
    expect(backoffDelay(1, equal, () => 0.999_999)).toBe(250);
    expect(backoffDelay(3, equal, () => 0.5)).toBe(1500);
  });

  it('treats attempt 0 or below as the first', () => {
    expect(backoffDelay(0, tunnel, () => 0)).toBe(1000);
    expect(backoffDelay(-3, tunnel, () => 0)).toBe(1000);
  });
});

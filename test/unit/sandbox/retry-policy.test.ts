import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../shared/limits';
import {
  FAILURE_TOLERANCE_MS,
  hasFailedTooLong,
  isTooOldToRetry,
  nextAttemptAtMs,
  retryDelayMs,
} from '../../../sandbox/webhooks/retry-policy';

describe('retryDelayMs', () => {
  it('backs off 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, then hourly, with no jitter', () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1));
    expect(delays).toEqual([
      1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
    expect(retryDelayMs(500)).toBe(3_600_000);
    expect(retryDelayMs(3)).toBe(retryDelayMs(3));
  });

  it('rejects a failure count that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => retryDelayMs(bad)).toThrow(RangeError);
    }
  });

  it('places the next attempt that long after the failure', () => {
    expect(nextAttemptAtMs(10_000, 1)).toBe(11_000);
    expect(nextAttemptAtMs(10_000, 7)).toBe(3_610_000);
  });

  it('keeps retrying a failing endpoint across the whole day Kick tolerates (about 30 attempts)', () => {
    let at = 0;
    let failures = 0;
    while (at <= FAILURE_TOLERANCE_MS) {
      at = nextAttemptAtMs(at, ++failures);
    }
    expect(failures).toBe(30);
  });
});

describe('hasFailedTooLong', () => {
  it("uses Kick's one-day tolerance from the limits table", () => {
    expect(FAILURE_TOLERANCE_MS).toBe(LIMITS.webhookFailureToleranceSeconds * 1000);
    expect(FAILURE_TOLERANCE_MS).toBe(86_400_000);
  });

  it('is true only for MORE than a day since the first failure', () => {
    const first = 1_000_000;
    expect(hasFailedTooLong(first, first)).toBe(false);
    expect(hasFailedTooLong(first, first + 86_400_000)).toBe(false);
    expect(hasFailedTooLong(first, first + 86_400_001)).toBe(true);
    expect(hasFailedTooLong(first, first + 10, 5)).toBe(true);
  });
});

describe('isTooOldToRetry', () => {
  it('gives a message up only after more than a day since its event', () => {
    expect(isTooOldToRetry(0, 86_400_000)).toBe(false);
    expect(isTooOldToRetry(0, 86_400_001)).toBe(true);
  });
});

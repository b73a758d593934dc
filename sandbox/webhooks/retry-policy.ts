/**
 * When the sandbox retries a failed webhook and when it gives up. Pure functions of clock times, so the
 * schedule is deterministic (no jitter) and tests can walk it by advancing the sandbox clock.
 *
 * Kick documents no retry schedule ([reference §5.5](../../docs/kick-wire-reference.md#55-expected-response-and-retries), [§9](../../docs/kick-wire-reference.md#9-open-questions) question 10): the old docs said "3 tries over some
 * period", the current ones only that an app failing for more than a day is unsubscribed. The sandbox
 * therefore retries with a growing back-off up to hourly, which keeps a failing endpoint under test for
 * the whole day Kick tolerates ([seed §8](../../docs/product-spec.md#8-limits) "webhook delivery failure tolerance: 1 day").
 */
import { LIMITS } from '../../shared/limits';

/** Delays after the 1st, 2nd, … failed attempt of one message; past the end, {@link RETRY_STEADY_DELAY_MS}. */
export const RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000];

/** Once the back-off steps are used up, a message is retried this often until it is dropped. */
export const RETRY_STEADY_DELAY_MS = 3_600_000;

/** Kick's tolerance for continuous failure, in milliseconds. */
export const FAILURE_TOLERANCE_MS = LIMITS.webhookFailureToleranceSeconds * 1000;

/** How long to wait after a message's `failedAttempts`-th failure (1-based) before trying it again. */
export function retryDelayMs(failedAttempts: number): number {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) {
    throw new RangeError(`failedAttempts must be a positive integer, got ${failedAttempts}`);
  }
  return RETRY_DELAYS_MS[failedAttempts - 1] ?? RETRY_STEADY_DELAY_MS;
}

/** The clock time of the next attempt after a failure observed at `failedAtMs`. */
export function nextAttemptAtMs(failedAtMs: number, failedAttempts: number): number {
  return failedAtMs + retryDelayMs(failedAttempts);
}

/**
 * Whether an (app, event type) pair has been failing for MORE than Kick's tolerance: measured from the
 * first failure with no success since, to a failure observed at `nowMs`.
 */
export function hasFailedTooLong(firstFailureAtMs: number, nowMs: number, toleranceMs = FAILURE_TOLERANCE_MS): boolean {
  return nowMs - firstFailureAtMs > toleranceMs;
}

/**
 * Whether one message is too old to retry. A message can outlive its pair's failure window when other
 * messages of the same type keep succeeding (a flaky receiver), so each message also gives up after the
 * same tolerance, counted from the event.
 */
export function isTooOldToRetry(eventAtMs: number, nowMs: number, toleranceMs = FAILURE_TOLERANCE_MS): boolean {
  return nowMs - eventAtMs > toleranceMs;
}

/**
 * scripts/electron-install-policy.mjs: when `npm start` tries the Electron download again. The rule the README
 * states: never by itself after a failure of this version, however quick the failure or long ago; only
 * `npm run install-electron`, a fresh install (the memory is gone) or another Electron version. The starts
 * themselves run in test/integration/launch/electron-retry.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { shouldSkipInstall, type FailureMemory } from '../../../scripts/electron-install-policy.mjs';

const now = Date.UTC(2026, 0, 10, 12);
const quick: FailureMemory = {
  version: '45.4.1',
  failedAt: now - 2_000,
  seconds: 0,
  timedOut: false,
  reason: 'github.com could not be found; are you offline?',
};

describe('shouldSkipInstall', () => {
  it('tries when nothing failed before', () => {
    expect(shouldSkipInstall(null, '45.4.1', now)).toBeNull();
  });

  it('skips after a quick failure of this version, saying how to try again', () => {
    expect(shouldSkipInstall(quick, '45.4.1', now)).toBe(
      'it failed a moment ago (github.com could not be found; are you offline?); `npm run install-electron` tries again',
    );
  });

  it('still skips days later: no start tries again by itself', () => {
    const skip = shouldSkipInstall({ ...quick, failedAt: now - 3 * 24 * 3_600_000 }, '45.4.1', now);
    expect(skip).toMatch(/^it failed 3 days ago \(/);
    expect(shouldSkipInstall({ ...quick, failedAt: now - 45 * 60_000 }, '45.4.1', now)).toMatch(
      /^it failed 45 min ago/,
    );
    expect(shouldSkipInstall({ ...quick, failedAt: now - 5 * 3_600_000 }, '45.4.1', now)).toMatch(
      /^it failed 5 hours ago/,
    );
  });

  it('tries again for another Electron version, even after a slow failure', () => {
    const slow = { ...quick, version: '44.0.0', seconds: 300, timedOut: true };
    expect(shouldSkipInstall(slow, '45.4.1', now)).toBeNull();
  });
});

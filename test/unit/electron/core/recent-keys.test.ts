import { describe, expect, it } from 'vitest';
import { RecentKeys } from '../../../../electron/core/recent-keys';

describe('RecentKeys', () => {
  it('knows a key for exactly its window, and a key remembered again for the window from then', () => {
    const keys = new RecentKeys(1000, 10);
    keys.remember('a', 0);
    expect(keys.has('a', 1000)).toBe(true);
    expect(keys.has('a', 1001)).toBe(false);
    keys.remember('a', 900);
    expect(keys.has('a', 1900)).toBe(true);
    expect(keys.has('b', 0)).toBe(false);
  });

  it('lets go of what expired as new keys come, and past its cap of the oldest, keeping the cap', () => {
    const keys = new RecentKeys(1000, 3);
    keys.remember('a', 0);
    keys.remember('b', 10);
    keys.remember('c', 20);
    // Remembered again, `a` is the newest: the cap lets `b` go instead.
    keys.remember('a', 30);
    keys.remember('d', 40);
    expect(keys.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].filter((k) => keys.has(k, 40))).toEqual(['a', 'c', 'd']);
    // Past the window of all three but the newest.
    keys.remember('e', 1035);
    expect(keys.size).toBe(2);
    expect(['a', 'c', 'd', 'e'].filter((k) => keys.has(k, 1035))).toEqual(['d', 'e']);
  });

  it('seenOrRemember says true for a repeat within the window, and remembers what it has not seen', () => {
    const keys = new RecentKeys(1000, 2);
    expect(keys.seenOrRemember('x', 0)).toBe(false);
    expect(keys.seenOrRemember('x', 1000)).toBe(true);
    // A repeat is not remembered anew: past the first sighting's window it is new again.
    expect(keys.seenOrRemember('x', 1001)).toBe(false);
    expect(keys.seenOrRemember('y', 1002)).toBe(false);
    expect(keys.seenOrRemember('z', 1003)).toBe(false);
    expect(keys.size).toBe(2);
    expect(keys.seenOrRemember('x', 1004)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  commaList,
  formatAgo,
  formatCountdown,
  formatMinutes,
  formatRelative,
} from '../../../../renderer/src/lib/format';

describe('format', () => {
  it('formats', () => {
    expect([1, 5, 10, 60, 1440, 10080, 90].map(formatMinutes)).toEqual(['1m', '5m', '10m', '1h', '1d', '1w', '90m']);
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatRelative(3_600_000 * 3, 0)).toBe('in 3 h');
    expect(formatRelative(0, 300_000)).toBe('5 min ago');
  });

  it('says a past moment in the past tense, even one a little ahead of the panel’s clock', () => {
    expect(formatAgo(0, 300_000)).toBe('5 min ago');
    expect(formatAgo(300_000, 300_000)).toBe('less than a minute ago');
    expect(formatAgo(320_000, 300_000)).toBe('less than a minute ago');
  });

  it('reads a comma-separated field as its list', () => {
    expect(commaList(' kick.com, ,youtube.com ,, ')).toEqual(['kick.com', 'youtube.com']);
    expect(commaList('')).toEqual([]);
  });
});

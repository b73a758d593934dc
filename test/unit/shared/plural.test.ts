import { describe, expect, it } from 'vitest';
import { formatNumber, plural } from '../../../shared/plural';

describe('formatNumber', () => {
  it('groups thousands with a comma, whatever the machine locale', () => {
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(1445)).toBe('1,445');
    expect(formatNumber(1_000_000)).toBe('1,000,000');
    expect(formatNumber(-12_345)).toBe('-12,345');
  });

  it('rounds a fraction and leaves what is not a number readable', () => {
    expect(formatNumber(1444.6)).toBe('1,445');
    expect(formatNumber(Number.NaN)).toBe('NaN');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});

describe('plural', () => {
  it('takes the singular for exactly one and the plural for any other count', () => {
    expect(plural(1, 'sub')).toBe('1 sub');
    expect(plural(0, 'sub')).toBe('0 subs');
    expect(plural(2, 'sub')).toBe('2 subs');
    expect(plural(1.5, 'hour')).toBe('2 hours');
    expect(plural(0.6, 'hour')).toBe('1 hour');
  });

  it('takes a given plural where adding an s is wrong, and groups the number', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(plural(1000, 'KICK')).toBe('1,000 KICKs');
  });
});

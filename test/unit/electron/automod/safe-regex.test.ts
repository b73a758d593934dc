import { describe, expect, it } from 'vitest';
import { checkRegex } from '../../../../electron/automod/safe-regex';

describe('the regex safety check', () => {
  it.each([
    ['(a+)+', /another repetition/],
    ['(\\w*)*x', /another repetition/],
    ['(a|aa)+', /alternatives/],
    ['((ab)*c)+', /another repetition/],
    ['(a{2,})*', /another repetition/],
    ['(.)\\1', /backreferences/],
    ['(?<=x)y', /lookbehind/],
    ['[', /not a valid regular expression/],
    ['x'.repeat(201), /at most 200/],
  ])('refuses %s', (pattern, reason) => {
    const checked = checkRegex(pattern);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toMatch(reason);
  });

  it.each(['b[i1]tc[o0]in', '^!\\w+$', '(free|cheap) (views|followers)', 'a+b+c*', '(ab)+', '[(+*)]+', '\\(a+\\)+'])(
    'compiles %s case-insensitive',
    (pattern) => {
      const checked = checkRegex(pattern);
      expect(checked.ok && checked.regex.flags).toBe('iu');
    },
  );
});

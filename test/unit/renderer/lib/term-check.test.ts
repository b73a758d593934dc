import { describe, expect, it } from 'vitest';
import { termRefusal } from '../../../../renderer/src/lib/term-check';

describe('termRefusal (Add term)', () => {
  it.each([
    ['(a+)+$', /^This regular expression cannot be used: a repeated group may not contain another repetition/],
    [
      '[unclosed',
      /^This regular expression cannot be used: not a valid regular expression: a \[ is never closed with \]\.$/,
    ],
    ['a{1,1000}', /^This regular expression cannot be used: too large: it compiles to \d+ steps, at most 500/],
    ['(?<=x)y', /lookahead and lookbehind .* are not supported/],
    ['(a|aa)+', /a repeated group may not contain alternatives/],
  ])('refuses the regular expression %s with the reason', (pattern, reason) => {
    expect(termRefusal([], pattern, 'regex')).toMatch(reason);
  });

  it('refuses a term over the length limit, naming the limit and the length', () => {
    expect(termRefusal([], 'x'.repeat(230), 'plain')).toBe('A term may be at most 200 characters; this one has 230.');
  });

  it('counts the rule set’s other patterns against its budget, as Save does', () => {
    const big = { pattern: 'a{1,200}b', kind: 'regex' as const };
    expect(termRefusal([big], 'c{1,200}d', 'regex')).toBeNull();
    expect(termRefusal([big, { ...big, pattern: 'c{1,200}d' }], 'e{1,200}f', 'regex')).toMatch(
      /together the regular expressions may compile to at most 1000 steps/,
    );
  });

  it('lets plain words and safe patterns in, and refuses a duplicate', () => {
    expect(termRefusal([], '(a+)+$', 'plain')).toBeNull();
    expect(termRefusal([], 'b[i1]tc[o0]in', 'regex')).toBeNull();
    expect(termRefusal([{ pattern: 'spam', kind: 'plain' }], ' spam ', 'plain')).toBe(
      'This term is already in the list.',
    );
  });
});

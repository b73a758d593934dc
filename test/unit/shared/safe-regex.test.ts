import { describe, expect, it } from 'vitest';
import { checkRegex, MAX_REGEX_STEPS, MAX_REGEX_TERMS, refusedRegexes } from '../../../shared/safe-regex';
import { automodSaveSchema, automodSettingsSchema, DEFAULT_AUTOMOD_SETTINGS } from '../../../shared/automod';

describe('the regex safety check', () => {
  it.each([
    ['(a+)+', /another repetition/],
    ['(\\w*)*x', /another repetition/],
    ['(a|aa)+', /alternatives/],
    ['((ab)*c)+', /another repetition/],
    ['(a{2,})*', /another repetition/],
    // Shapes the check before RE2 let through: a class JavaScript closes at once, and counted repeats.
    ['[^](a+)+$', /another repetition/],
    ['(a+){9}b', /another repetition/],
    ['((a+){3}){3}b', /another repetition/],
    ['[^](a|aa)+$', /alternatives/],
    ['a*a*a*a*a*a*b', /three times in a row/],
    ['\\w*\\w*\\w*\\w*\\w*\\w*!', /three times in a row/],
    ['.*.*.*.*.*=x', /three times in a row/],
    ['(.)\\1', /backreferences/],
    ['(?<name>.)\\k<name>', /backreferences/],
    ['(?<=x)y', /lookbehind/],
    ['x(?!y)', /lookahead/],
    ['x{1000}', new RegExp(`compiles to 1002 steps, at most ${MAX_REGEX_STEPS}`)],
    ['[', /not a valid regular expression/],
    ['x'.repeat(201), /at most 200/],
  ])('refuses %s', (pattern, reason) => {
    const checked = checkRegex(pattern);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.error.reason).toMatch(reason);
  });

  it.each([
    ['[unclosed', 'a [ is never closed with ]', 'missing closing ]'],
    ['(a', 'a ( is never closed with )', 'missing closing )'],
    ['a)', 'a ) has no ( before it', 'unexpected )'],
    ['*a', 'a *, + or ? has nothing before it to repeat', 'missing argument'],
    ['a{2,1}', 'a {…} count is backwards or over 1000', 'invalid repeat count'],
    ['a\\', 'it ends with a lone \\', 'trailing backslash'],
  ])('words the syntax error in %s plainly, with the engine text kept for Details', (pattern, words, engine) => {
    const checked = checkRegex(pattern);
    expect(!checked.ok && checked.error.reason).toBe(`not a valid regular expression: ${words}`);
    expect(!checked.ok && checked.error.reason).not.toMatch(/regexp|parsing|`/);
    expect(!checked.ok && checked.error.detail).toContain(engine);
  });

  it.each([
    ['b[i1]tc[o0]in', 'B1TC0IN now', 'bitcoi'],
    ['^!\\w+$', '!Commands', '! commands'],
    ['(free|cheap) (views|followers)', 'CHEAP followers', 'free stuff'],
    ['(ab)+c', 'xababc', 'xac'],
    ['[(+*)]+', 'a (+) b', 'ab'],
    ['\\(a+\\)+', '(aaa)', 'aaa'],
    ['\\d{3}\\d{4}', 'call 5551234', 'call 555-1234'],
    ['[^]x', 'ax', 'x'],
    ['(?<word>spam)', 'no SPAM', 'no spa m'],
  ])('runs %s on RE2, case-insensitive, in JavaScript spelling', (pattern, hit, miss) => {
    const checked = checkRegex(pattern);
    expect(checked.ok && [checked.value.test(hit), checked.value.test(miss)]).toEqual([true, false]);
  });
});

describe('automodSaveSchema', () => {
  it('refuses an unsafe regular expression at save, naming the term, and keeps plain terms alone', () => {
    const settings = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    settings.blockedTerms.terms = [
      { pattern: '(a+)+', kind: 'plain' },
      { pattern: '(a+)+$', kind: 'regex' },
    ];
    const parsed = automodSaveSchema.safeParse(settings);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ['blockedTerms', 'terms', 1, 'pattern'],
        message: expect.stringMatching(/^the regular expression \(a\+\)\+\$ is refused: /),
      }),
    ]);
    settings.blockedTerms.terms[1] = { pattern: 'b[i1]tc[o0]in', kind: 'regex' };
    expect(automodSaveSchema.safeParse(settings).success).toBe(true);
    // The settings file is read with the plain schema: a stored unsafe term does not cost the rule set.
    settings.blockedTerms.terms[1] = { pattern: '(a+)+$', kind: 'regex' };
    expect(automodSettingsSchema.safeParse(settings).success).toBe(true);
  });
});

describe('refusedRegexes', () => {
  it('judges each pattern, then the count and the set budget spent by the ones before it', () => {
    expect(refusedRegexes(['ok', '(a+)+$', '[unclosed', 'x'.repeat(201)])).toEqual([
      null,
      expect.stringMatching(/^a repeated group/),
      expect.stringMatching(/^not a valid regular expression/),
      'at most 200 characters',
    ]);
    // Each of these fits its own budget; together they pass the set's, from the third on.
    const big = 'a{1,200}b';
    expect(checkRegex(big).ok).toBe(true);
    const set = refusedRegexes([big, big, big]);
    expect(set.slice(0, 2)).toEqual([null, null]);
    expect(set.at(-1)).toMatch(/^together the regular expressions may compile to at most 1000 steps/);
    const many = refusedRegexes(Array.from({ length: MAX_REGEX_TERMS + 1 }, (_, i) => `t${i}`));
    expect(many.at(-1)).toBe(`at most ${MAX_REGEX_TERMS} regular expressions`);
    expect(many.at(-2)).toBeNull();
  });
});

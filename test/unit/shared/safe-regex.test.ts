import { describe, expect, it } from 'vitest';
import { checkRegex } from '../../../shared/safe-regex';
import { automodSaveSchema, automodSettingsSchema, DEFAULT_AUTOMOD_SETTINGS } from '../../../shared/automod';

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

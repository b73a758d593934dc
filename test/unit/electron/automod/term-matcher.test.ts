import { describe, expect, it } from 'vitest';
import { buildTermMatcher, globMatcher } from '../../../../electron/automod/term-matcher';
import { foldLetters } from '../../../../shared/normalise-text';
import { MAX_REGEX_TERMS } from '../../../../shared/safe-regex';

describe('wildcard words', () => {
  it.each([
    ['spam*bot', 'spammerbot', true],
    ['spam*bot', 'spambot', true],
    ['spam*bot', 'spamb', false],
    ['*x', 'aaax', true],
    ['**********x', 'x', true],
    ['**********x', `${'a'.repeat(5000)}y`, false],
    ['a*b*a', 'aba', true],
    ['a*b*a', 'ab', false],
    ['*ab*ab*', 'xabyab', true],
    ['*ab*ab*', 'xab', false],
    ['a*a', 'a', false],
  ])('%s against %s: %s', (pattern, word, matches) => {
    expect(globMatcher(pattern)(word)).toBe(matches);
  });
});

describe('the blocked-term matcher', () => {
  it('folds the terms as it folds the message: a term typed with look-alikes matches the plain word', () => {
    const { matcher } = buildTermMatcher([{ pattern: 'frее', kind: 'plain' }]);
    expect(matcher.match(foldLetters('FREE stuff'))).toBe('frее');
  });

  it('refuses wildcard terms with no letter or digit, which would match every word', () => {
    const { refused } = buildTermMatcher([{ pattern: '***', kind: 'wildcard' }]);
    expect(refused).toEqual([{ pattern: '***', reason: 'needs at least one letter or digit' }]);
  });

  it('holds a settings file to the regular-expression budget Save applies', () => {
    const terms = [
      ...Array.from({ length: MAX_REGEX_TERMS + 1 }, (_, i) => ({ pattern: `spam${i}`, kind: 'regex' as const })),
    ];
    const { refused, matcher } = buildTermMatcher(terms);
    expect(refused).toEqual([
      { pattern: `spam${MAX_REGEX_TERMS}`, reason: `at most ${MAX_REGEX_TERMS} regular expressions` },
    ]);
    expect(matcher.match('spam0')).toBe('spam0');
    const large = buildTermMatcher(Array.from({ length: 3 }, (_, i) => ({ pattern: `[a-z]{400}${i}`, kind: 'regex' })));
    expect(large.refused).toEqual([
      { pattern: '[a-z]{400}2', reason: 'together the regular expressions may compile to at most 1000 steps' },
    ]);
  });

  it('tries a wildcard term only where its literal parts occur, and still finds it there', () => {
    const { matcher } = buildTermMatcher([
      { pattern: 'cheap *views', kind: 'wildcard' },
      { pattern: '*coin giveaway', kind: 'wildcard' },
      { pattern: '*bot*', kind: 'wildcard' },
    ]);
    expect(matcher.match('cheap fakeviews here')).toBe('cheap *views');
    expect(matcher.match('cheap stuff, views')).toBeNull();
    expect(matcher.match('bitcoin giveaway')).toBe('*coin giveaway');
    expect(matcher.match('a coin giveaway')).toBe('*coin giveaway');
    expect(matcher.match('the robots are here')).toBe('*bot*');
    expect(matcher.match('bitcoins giveaway')).toBeNull();
  });
});

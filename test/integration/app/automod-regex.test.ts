/**
 * Rules that could stall main, through the real entry points: Save (`settings:update` through the router, as
 * the panel's socket sends it) refuses each trap with its reason and changes nothing; a settings file that
 * already holds them starts, logs each as unused, and judges the message built to stall them at once; a
 * wildcard term is matched in one pass. Chat lines are signed deliveries from the embedded sandbox
 * (docs/automod.md#regular-expressions).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlockedTerm } from '../../../shared/automod';
import { MAX_REGEX_TERMS } from '../../../shared/safe-regex';
import { openSettings, SETTINGS_FILE_NAME } from '../../../electron/app/settings';
import { evasionRules } from './automod-evasions';
import { call, fx, saveRules, say, startAutomodApp, useAutomodApp } from './automod-fixtures';

/** The nine catastrophic patterns, named by the trap each sets for a backtracking engine. */
const NINE: readonly (readonly [name: string, pattern: string, reason: RegExp])[] = [
  ['a class JavaScript closes at once, before a nested repetition', '[^](a+)+$', /another repetition/],
  ['a nested repetition repeated nine times', '(a+){9}b', /another repetition/],
  ['counted repetitions nested in counted repetitions', '((a+){3}){3}b', /another repetition/],
  ['six adjacent repetitions of one letter', 'a*a*a*a*a*a*b', /three times in a row/],
  ['six adjacent word-character runs', '\\w*\\w*\\w*\\w*\\w*\\w*!', /three times in a row/],
  ['five adjacent any-character runs', '.*.*.*.*.*=x', /three times in a row/],
  ['a repeated group holding a repetition', '(a+)+$', /another repetition/],
  ['a repeated group of overlapping alternatives', '(a|aa)+$', /alternatives/],
  ['a repeated group holding a star', '(\\w*)*$', /another repetition/],
];

/** More of the same kinds, and what RE2 cannot run at all. */
const MORE: readonly (readonly [name: string, pattern: string, reason: RegExp])[] = [
  ['overlapping alternatives after a class JavaScript closes at once', '[^](a|aa)+$', /alternatives/],
  ['a star repeated nine times', '(\\w*){9}$', /another repetition/],
  ['a lookahead', 'free(?= followers)', /lookahead and lookbehind .* not supported/],
  ['a negative lookahead', '^(?!ok)\\w+', /lookahead and lookbehind .* not supported/],
  ['a backreference by name', '(?<c>\\w)\\k<c>{5}', /backreferences .* not supported/],
  ['a count that compiles past the step budget', '[a-z]{1000}x', /compiles to \d+ steps, at most 500/],
];

/** The message each trap stalls a backtracking engine on: 28 letters and a mismatch (29 characters). */
const STALLER = `${'a'.repeat(28)}!`;

/** Blocked terms only (the other rules would catch the long runs of one letter these lines are made of). */
const termsOnly = (terms: BlockedTerm[]) => {
  const rules = evasionRules();
  rules.links.enabled = false;
  rules.caps.enabled = false;
  rules.repeatedChars.enabled = false;
  rules.blockedTerms.terms = terms;
  return rules;
};

const withRegexes = (patterns: readonly string[]) =>
  termsOnly([
    { pattern: 'free followers', kind: 'plain' },
    ...patterns.map((pattern): BlockedTerm => ({ pattern, kind: 'regex' })),
  ]);

describe('Save refuses rules that could stall main, naming the term and the reason', () => {
  useAutomodApp();

  it.each([...NINE, ...MORE])('refuses %s: %s', async (_name, pattern, reason) => {
    const before = (await call(fx.app, 'settings:get')).automod;
    const answer = await saveRules(fx.app, withRegexes([pattern]));
    expect(answer).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    const message = !answer.ok ? answer.error.message : '';
    expect(message).toContain(`automod.blockedTerms.terms.1.pattern: the regular expression ${pattern} is refused: `);
    expect(message).toMatch(reason);
    expect((await call(fx.app, 'settings:get')).automod).toEqual(before);
  });

  it(`refuses more than ${MAX_REGEX_TERMS} regular expressions, and a set over the step budget`, async () => {
    const many = Array.from({ length: MAX_REGEX_TERMS + 1 }, (_, i) => `spam${i}`);
    const tooMany = await saveRules(fx.app, withRegexes(many));
    expect(!tooMany.ok && tooMany.error.message).toMatch(
      new RegExp(`terms\\.${MAX_REGEX_TERMS + 1}\\.pattern: .* at most ${MAX_REGEX_TERMS} regular expressions`),
    );
    const large = Array.from({ length: 3 }, (_, i) => `[a-z]{400}${i}`);
    const tooLarge = await saveRules(fx.app, withRegexes(large));
    expect(!tooLarge.ok && tooLarge.error.message).toMatch(/terms\.3\.pattern: .* at most 1000 steps/);
  });

  it('matches a wildcard term in one pass: `**********x` against a 400-letter word', async () => {
    // A backtracking regex for this term takes seconds at 20 letters and grows much faster than the word.
    const rules = termsOnly([{ pattern: '**********x', kind: 'wildcard' }]);
    expect(await saveRules(fx.app, rules)).toMatchObject({ ok: true });
    expect((await say(fx, `${'a'.repeat(400)}!`)).message.deleted).toBe(false);
    const caught = await say(fx, `${'a'.repeat(400)}x`);
    expect(caught.action?.auto?.reason).toBe('blocked term “**********x”');
  });
});

describe('a settings file that already holds them', () => {
  it('starts, logs each as unused with its reason, keeps the other rules, and judges the stalling line at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-automod-file-'));
    try {
      // The file as an older Greenroom or an edit by hand left it: written past the Save check.
      openSettings(dir, { randomBytes }).update({ redirectUri: 'http://127.0.0.1:0/callback' });
      const path = join(dir, `${SETTINGS_FILE_NAME}.json`);
      const file = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      const patterns = [...NINE, ...MORE].map(([, pattern]) => pattern);
      writeFileSync(path, JSON.stringify({ ...file, automod: withRegexes(patterns) }));

      const started = await startAutomodApp(dir);
      try {
        for (const pattern of patterns) {
          expect(started.logs).toContainEqual(
            expect.stringContaining(`automod: the blocked term ${pattern} is not used: `),
          );
        }
        expect((await say(started, STALLER)).message.deleted).toBe(false);
        expect((await say(started, 'get free followers')).action?.auto?.rule).toBe('blocked-term');
      } finally {
        await started.app.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

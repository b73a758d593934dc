/**
 * The worst auto-moderation figure's inputs (bench/automod-worst-case.ts): the largest rule sets Save allows,
 * built to be slow on RE2 and on the wildcard and link scans, and 500-character messages built against them.
 */
import { type AutomodSettings, DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { checkRegex, MAX_REGEX_TERMS, MAX_RULE_SET_STEPS } from '../../shared/safe-regex';
import { seededRandom } from './raid-chat';

/** The nine catastrophic patterns: Save must refuse each (docs/automod.md#regular-expressions). */
export const CATASTROPHIC = [
  '[^](a+)+$',
  '(a+){9}b',
  '((a+){3}){3}b',
  'a*a*a*a*a*a*b',
  '\\w*\\w*\\w*\\w*\\w*\\w*!',
  '.*.*.*.*.*=x',
  '(a+)+$',
  '(a|aa)+$',
  '(\\w*)*$',
];

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every rule on, nobody exempt, acting (hide: nothing goes to Kick, so only judging is measured). */
function everyRule(): AutomodSettings {
  const s = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
  const hide = { kind: 'hide' as const, minutes: 5 };
  s.enabled = true;
  s.dryRun = false;
  s.exemptBadges = [];
  s.blockedTerms.action = hide;
  s.links = { enabled: true, allow: ['kick.com', 'clips.example'], allowSeenChatters: false, action: hide };
  s.caps = { ...s.caps, enabled: true, action: hide };
  s.emotes = { ...s.emotes, enabled: true, action: hide };
  s.repeatedChars = { ...s.repeatedChars, enabled: true, action: hide };
  s.repeatedMessages = { ...s.repeatedMessages, enabled: true, action: hide };
  s.rate = { ...s.rate, enabled: true, messages: 100, action: hide };
  return s;
}

/** Regexes from `make(i)` while Save would take them: at most 50, at most the rule set's steps. */
function fill(make: (i: number) => string): string[] {
  const patterns: string[] = [];
  let steps = 0;
  for (let i = 0; patterns.length < MAX_REGEX_TERMS && i < 10 * MAX_REGEX_TERMS; i++) {
    const check = checkRegex(make(i));
    if (check.ok && steps + check.value.steps <= MAX_RULE_SET_STEPS) {
      patterns.push(make(i));
      steps += check.value.steps;
    }
  }
  return patterns;
}

/**
 * The two largest rule sets: 1,000 terms each (the most Save takes), every rule on. One spends the step
 * budget on the largest patterns that blow up RE2's state cache, the other on 50 small ones of the kind.
 * Both carry 450 wildcard terms whose pieces the adversarial lines contain; plain terms make up the rest.
 */
export function largestRuleSets(): { name: string; rules: AutomodSettings }[] {
  const rng = seededRandom(41);
  const letter = (): string => LETTERS[Math.floor(rng() * 26)]!;
  const word = (n: number): string => Array.from({ length: n }, letter).join('');
  const large = (i: number): string =>
    `(?:[a-z]{1,${11 - (i % 3)}}[^a-z]{0,11}){1,11}${LETTERS[i % 26]}${LETTERS[(i * 7) % 26]}`;
  const small = (i: number, n: number): string =>
    `[${LETTERS[i % 10]}-q][^${LETTERS[16 + (i % 10)]}-z]{${n}}${LETTERS[(i * 5) % 26]}`;
  const big = fill((i) => (i < 4 ? large(i) : small(i, 40)));
  const many = fill((i) => small(i, 14));
  const wildcards = Array.from({ length: 450 }, () => ({
    pattern: `*${letter()}*${letter()}*${word(2)}`,
    kind: 'wildcard' as const,
  }));
  return [big, many].map((patterns, i) => {
    const rules = everyRule();
    const plain = Array.from({ length: 1000 - patterns.length - wildcards.length }, () => ({
      pattern: `${word(6)} ${word(6)}`,
      kind: 'plain' as const,
    }));
    rules.blockedTerms.terms = [
      ...patterns.map((pattern) => ({ pattern, kind: 'regex' as const })),
      ...wildcards,
      ...plain,
    ];
    return { name: i === 0 ? 'the largest patterns' : `${patterns.length} regexes`, rules };
  });
}

/**
 * `count` different 500-character lines, in turn: random letters and spaces (the slow patterns' food),
 * letters from the classes the patterns blow up on, the classic staller, mathematical letters with
 * zero-width spaces, a hundred link-shaped words, a hundred distinct words that carry the wildcard terms'
 * pieces, and ligatures that fold to twice their length.
 */
export function adversarialLines(count: number): string[] {
  const rng = seededRandom(97);
  const pick = (chars: string): string => chars[Math.floor(rng() * chars.length)]!;
  const kinds: (() => string)[] = [
    () => Array.from({ length: 500 }, () => (rng() < 0.1 ? ' ' : pick(LETTERS))).join(''),
    () => Array.from({ length: 500 }, () => pick('abcdefghijklmnopquvwxyz-')).join(''),
    () => `${'a'.repeat(499)}!`,
    () => Array.from({ length: 166 }, () => `${String.fromCodePoint(0x1d41a + Math.floor(rng() * 26))}\u200b`).join(''),
    () => Array.from({ length: 100 }, () => `${pick(LETTERS)}.${pick(LETTERS)}${pick(LETTERS)} `).join(''),
    () =>
      Array.from({ length: 100 }, () => `${pick(LETTERS)}${pick(LETTERS)}${pick(LETTERS)}${pick(LETTERS)} `).join(''),
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length]!().slice(0, 500));
}

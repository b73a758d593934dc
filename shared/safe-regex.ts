/**
 * A streamer's regular expression, compiled for a linear-time engine (docs/automod.md, "Regular
 * expressions"). JavaScript's own engine backtracks: a pattern such as `(a+)+$` or `a*a*a*a*a*a*b` can
 * take seconds on one crafted message and stall main during a raid, and no check of the pattern's text
 * finds every such shape. RE2 (`re2js`, a pure JavaScript port) cannot backtrack: its time grows with the
 * message's length times the pattern's compiled size, whatever the pattern. So the check here is about
 * what RE2 cannot do (backreferences, lookaround) and about size: each pattern and the rule set as a whole
 * have a budget of compiled steps, which bounds the work per message (docs/decisions.md, "Regular
 * expressions run on RE2").
 *
 * The known traps (a repetition inside a repeated group, alternatives repeated without limit, the same
 * thing repeated three times in a row) are still refused by their shape, with a reason the streamer can act on:
 * they are mistakes in any pattern, and a pattern kept in the settings should stay safe on any engine.
 * A trap the shape check does not recognise is harmless all the same, on RE2.
 */
import { RE2JS } from 're2js';
import { errResult, okResult, type Result } from './errors';

/** Characters in one pattern. */
export const MAX_REGEX_LENGTH = 200;
/** Compiled steps (RE2 instructions) one pattern may take. */
export const MAX_REGEX_STEPS = 500;
/** Compiled steps all of a rule set's patterns may take together. */
export const MAX_RULE_SET_STEPS = 1000;
/** Regular expressions in one rule set. */
export const MAX_REGEX_TERMS = 50;
/**
 * Memory each pattern's state cache may use, as RE2 counts it (its default is 8 MiB). A crafted chat line
 * makes the cache fill with states seen once; 50 patterns at the default could hold hundreds of megabytes
 * and the collections that frees stall main. When the cache is full RE2 empties it and goes on.
 */
export const REGEX_CACHE_BYTES = 1 << 20;

/** A compiled pattern: `test` runs in time linear in the text. */
export interface SafeRegex {
  test(text: string): boolean;
  /** Its compiled size, counted against `MAX_RULE_SET_STEPS`. */
  steps: number;
  /** The pattern in RE2's syntax, for `unionOf`. */
  source: string;
  /** States in RE2's cache now: a line that adds many, or empties the cache, was costly to test. */
  cachedStates(): number;
}

/** Why a pattern is refused: `reason` in a streamer's words; `detail`, the engine's own text, for Details only. */
export interface RegexRefusal {
  reason: string;
  detail?: string;
}

/** The compiled pattern, or why it is refused (the project's one result shape, shared/errors.ts). */
export type RegexCheck = Result<SafeRegex, RegexRefusal>;

/**
 * RE2's syntax errors in a streamer's words. The engine's text ("error parsing regexp: missing closing ]:
 * `[x`") names its own internals, so it goes behind Details
 * ([Regular expressions](../docs/automod.md#regular-expressions)).
 */
const SYNTAX_WORDS: readonly (readonly [string, string])[] = [
  ['missing closing ]', 'a [ is never closed with ]'],
  ['missing closing )', 'a ( is never closed with )'],
  ['unexpected )', 'a ) has no ( before it'],
  ['missing argument to repetition operator', 'a *, + or ? has nothing before it to repeat'],
  ['invalid nested repetition operator', 'two repeat marks such as ** or +* stand in a row'],
  ['invalid repeat count', 'a {…} count is backwards or over 1000'],
  ['invalid character class range', 'a range inside […] runs backwards or is not one the engine knows'],
  ['invalid character class', 'a […] set is written wrongly'],
  ['invalid escape sequence', 'a \\ is followed by a character it cannot escape'],
  ['trailing backslash', 'it ends with a lone \\'],
  ['invalid named capture', 'a named group (?<…>) is written wrongly'],
];

function syntaxWords(engineText: string): string {
  const words = SYNTAX_WORDS.find(([code]) => engineText.includes(code))?.[1];
  return words ?? 'check its brackets and special characters';
}

const NOT_SUPPORTED = 'Greenroom runs patterns on an engine no message can slow down, and that engine has none';

/** Compiles `pattern` (case-insensitive) when RE2 can run it within the budget; otherwise says why not. */
export function checkRegex(pattern: string): RegexCheck {
  if (pattern.length > MAX_REGEX_LENGTH) {
    return errResult({ reason: `at most ${MAX_REGEX_LENGTH} characters` });
  }
  const unsupported = unsupportedSyntax(pattern);
  if (unsupported) {
    return errResult({ reason: `${unsupported} are not supported (${NOT_SUPPORTED})` });
  }
  const trap = knownTrap(pattern);
  if (trap) {
    return errResult({ reason: `${trap} (on most regex engines one message can then take seconds)` });
  }
  const source = RE2JS.translateRegExp(pattern);
  let compiled: SafeRegex;
  try {
    // JavaScript spellings RE2 writes differently (`[^]`, `(?<name>`, `\u{…}`) are translated first.
    compiled = compile(source);
  } catch (error) {
    const engineText = (error as Error).message;
    return errResult({ reason: `not a valid regular expression: ${syntaxWords(engineText)}`, detail: engineText });
  }
  if (compiled.steps > MAX_REGEX_STEPS) {
    return errResult({
      reason: `too large: it compiles to ${compiled.steps} steps, at most ${MAX_REGEX_STEPS} (use smaller counts like {1,20})`,
    });
  }
  return okResult(compiled);
}

/**
 * Why each of a rule set's regular expressions is refused, in order, or null where it is kept: its own
 * check, then the count and the set's budget of compiled steps, each spent by the patterns before it. Save
 * in main and "Add term" in the panel both judge with this, so a term the panel lets in is one Save keeps.
 */
export function refusedRegexes(patterns: readonly string[]): (string | null)[] {
  let steps = 0;
  return patterns.map((pattern, i) => {
    if (i >= MAX_REGEX_TERMS) {
      return `at most ${MAX_REGEX_TERMS} regular expressions`;
    }
    const check = checkRegex(pattern);
    if (!check.ok) {
      return check.error.reason;
    }
    steps += check.value.steps;
    return steps > MAX_RULE_SET_STEPS
      ? `together the regular expressions may compile to at most ${MAX_RULE_SET_STEPS} steps, and this one brings them to ${steps}`
      : null;
  });
}

/**
 * One pattern that matches where any of `regexes` does, or null when RE2 cannot join them (two groups of
 * one name). One pass for many patterns is the fast way through ordinary chat; see `electron/automod/regex-terms.ts`
 * for when it is not.
 */
export function unionOf(regexes: readonly SafeRegex[]): SafeRegex | null {
  try {
    return compile(regexes.map((regex) => `(?:${regex.source})`).join('|'));
  } catch {
    return null;
  }
}

/** The fields of re2js's lazy DFA (re2js 2.10) that hold its cache's budget and size. */
interface RegexCache {
  maxMem: number;
  stateBudget: number;
  memBudget: number;
  stateCount: number;
}

/** Compiles RE2 `source` case-insensitive, with its state cache held to `REGEX_CACHE_BYTES`. */
function compile(source: string): SafeRegex {
  const compiled = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  // re2js types its compiled program loosely; `numInst()` is the instruction count RE2 caps programs by.
  const program = compiled.re2().prog as { numInst(): number };
  // re2js has no option for the cache's size; its lazy DFA keeps the budget in these fields (re2js 2.10).
  const cache = (compiled.re2() as unknown as { dfa?: RegexCache }).dfa;
  if (cache) {
    cache.maxMem = cache.stateBudget = cache.memBudget = REGEX_CACHE_BYTES;
  }
  return {
    test: (text) => compiled.test(text),
    steps: program.numInst(),
    source,
    cachedStates: () => cache?.stateCount ?? 0,
  };
}

/**
 * Backreferences and lookaround, outside character classes and escapes: RE2 refuses them too, but with a
 * parser's message; this names them.
 */
function unsupportedSyntax(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) {
        return 'backreferences (\\1, \\k<name>)';
      }
      i++;
    } else if (inClass) {
      inClass = c !== ']';
    } else if (c === '[') {
      inClass = true;
      // `[]…` and `[^]…`: in JavaScript the class is empty or any character, closed at once.
      const closeAt = pattern.startsWith('^]', i + 1) ? i + 2 : pattern[i + 1] === ']' ? i + 1 : -1;
      if (closeAt > 0) {
        i = closeAt;
        inClass = false;
      }
    } else if (c === '(' && /^\?(?:=|!|<=|<!)/.test(pattern.slice(i + 1, i + 4))) {
      return 'lookahead and lookbehind ((?=, (?!, (?<=, (?<!)';
    }
  }
  return null;
}

// --- Known traps ---

interface Atom {
  text: string;
  start: number;
  /** For a group: it holds an open-ended repetition (`+`, `*`, `{n,}`), or alternatives. */
  open: boolean;
  alternatives: boolean;
}

interface Group {
  start: number;
  open: boolean;
  alternatives: boolean;
}

/** The most times a quantifier at `at` repeats (Infinity for `*`, `+`, `{n,}`), its length; null if none. */
function quantifierAt(pattern: string, at: number): { max: number; length: number } | null {
  const c = pattern[at];
  if (c === '*' || c === '+') {
    return { max: Infinity, length: 1 };
  }
  if (c === '?') {
    return { max: 1, length: 1 };
  }
  const braces = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at)) : null;
  if (!braces) {
    return null;
  }
  const max = braces[2] === undefined ? Number(braces[1]) : braces[3] ? Number(braces[3]) : Infinity;
  return { max, length: braces[0].length };
}

/** Where the class opening at `at` closes, as JavaScript reads it (`[]` and `[^]` close at once). */
function classEnd(pattern: string, at: number): number {
  let j = at + 1;
  if (pattern[j] === '^') {
    j++;
  }
  while (j < pattern.length && pattern[j] !== ']') {
    j += pattern[j] === '\\' ? 2 : 1;
  }
  return j;
}

/** The first known trap in `pattern`, in the streamer's words, or null. */
function knownTrap(pattern: string): string | null {
  const stack: Group[] = [{ start: -1, open: false, alternatives: false }];
  let atom: Atom | null = null;
  let lastOpen: { text: string; end: number; run: number } | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const quantifier = quantifierAt(pattern, i);
    if (quantifier) {
      const end = i + quantifier.length + (pattern[i + quantifier.length] === '?' ? 1 : 0);
      if (atom && quantifier.max >= 2) {
        if (atom.open) {
          return 'a repeated group may not contain another repetition, like (a+)+ or (a+){9}';
        }
        if (atom.alternatives && quantifier.max === Infinity) {
          return 'a repeated group may not contain alternatives, like (a|aa)+';
        }
        if (quantifier.max === Infinity) {
          // Two in a row (`e+e+` in `fre+e+`) cost a backtracking engine little; each more multiplies it.
          const run: number =
            lastOpen && lastOpen.end === atom.start && lastOpen.text === atom.text ? lastOpen.run + 1 : 1;
          if (run >= 3) {
            return 'the same thing may not repeat three times in a row, like a*a*a* or .*.*.*';
          }
          stack[stack.length - 1]!.open = true;
          lastOpen = { text: atom.text, end, run };
        }
      }
      atom = null;
      i = end - 1;
      continue;
    }
    if (c === '\\') {
      atom = { text: pattern.slice(i, i + 2), start: i, open: false, alternatives: false };
      i++;
    } else if (c === '[') {
      const end = classEnd(pattern, i);
      atom = { text: pattern.slice(i, end + 1), start: i, open: false, alternatives: false };
      i = end;
    } else if (c === '(') {
      stack.push({ start: i, open: false, alternatives: false });
      atom = null;
    } else if (c === ')' && stack.length > 1) {
      const group = stack.pop()!;
      const parent = stack[stack.length - 1]!;
      parent.open ||= group.open;
      parent.alternatives ||= group.alternatives;
      atom = { ...group, text: pattern.slice(group.start, i + 1) };
    } else if (c === '|') {
      stack[stack.length - 1]!.alternatives = true;
      atom = null;
    } else {
      atom = { text: c, start: i, open: false, alternatives: false };
    }
  }
  return null;
}

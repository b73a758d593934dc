/**
 * The check a streamer's regular expression passes before auto-moderation runs it on every chat message
 * (docs/automod.md, "Blocked terms"). JavaScript's regex engine backtracks, so a pattern with a repeated
 * group that itself repeats (`(a+)+`, `(\w*)*`, `(a|aa)+`) can take seconds on one crafted message and
 * stall main during a raid. Refused: quantified groups that contain a quantifier or an alternation,
 * backreferences, lookbehind, and anything over 200 characters. What passes is compiled case-insensitive.
 */

export type RegexCheck = { ok: true; regex: RegExp } | { ok: false; reason: string };

const MAX_LENGTH = 200;

/** Compiles `pattern` when it is safe to run on every message; otherwise says why not. */
export function checkRegex(pattern: string): RegexCheck {
  if (pattern.length > MAX_LENGTH) {
    return { ok: false, reason: `at most ${MAX_LENGTH} characters` };
  }
  if (/\\[1-9]|\\k</.test(pattern)) {
    return { ok: false, reason: 'backreferences are not allowed (they can make one message take seconds)' };
  }
  if (/\(\?<[=!]/.test(pattern)) {
    return { ok: false, reason: 'lookbehind is not allowed' };
  }
  const nested = nestedRepetition(pattern);
  if (nested) {
    return { ok: false, reason: `${nested} (it can make one message take seconds)` };
  }
  try {
    return { ok: true, regex: new RegExp(pattern, 'iu') };
  } catch (error) {
    return { ok: false, reason: `not a valid regular expression (${(error as Error).message})` };
  }
}

interface Group {
  /** A quantifier or alternation appeared inside this group (or a group nested in it). */
  risky: 'quantifier' | 'alternation' | null;
}

/**
 * Walks the pattern once, tracking groups: a group followed by a quantifier (`*`, `+`, `{n,}`, `{n,m}` with
 * m > 1) whose body has a quantifier or `|` is a nested repetition. Character classes and escapes are
 * skipped as single atoms.
 */
function nestedRepetition(pattern: string): string | null {
  const stack: Group[] = [{ risky: null }];
  let lastClosed: Group | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++;
      lastClosed = null;
      continue;
    }
    if (c === '[') {
      // Skip the class: up to the first unescaped `]` after at least one character.
      let j = i + 1;
      if (pattern[j] === '^') {
        j++;
      }
      if (pattern[j] === ']') {
        j++;
      }
      while (j < pattern.length && pattern[j] !== ']') {
        j += pattern[j] === '\\' ? 2 : 1;
      }
      i = j;
      lastClosed = null;
      continue;
    }
    if (c === '(') {
      stack.push({ risky: null });
      lastClosed = null;
      continue;
    }
    if (c === ')') {
      const closed = stack.length > 1 ? stack.pop()! : null;
      if (closed?.risky) {
        stack[stack.length - 1]!.risky ??= closed.risky;
      }
      lastClosed = closed;
      continue;
    }
    if (c === '|') {
      stack[stack.length - 1]!.risky ??= 'alternation';
      lastClosed = null;
      continue;
    }
    const quantifier = c === '*' || c === '+' || (c === '{' && /^\{\d*,\d*\}|^\{\d{2,}\}/.test(pattern.slice(i)));
    const optional = c === '?';
    if (quantifier || optional) {
      if (quantifier && lastClosed?.risky) {
        return lastClosed.risky === 'quantifier'
          ? 'a repeated group may not contain another repetition'
          : 'a repeated group may not contain alternatives';
      }
      if (quantifier) {
        stack[stack.length - 1]!.risky = 'quantifier';
      }
      lastClosed = null;
      continue;
    }
    lastClosed = null;
  }
  return null;
}

/**
 * Blocked terms as one matcher (docs/automod.md, "Blocked terms"). Main judges every chat message with it
 * before the message is shown, so its cost per message must not grow with the number of terms:
 *
 * - The message is split once into lower-case words (letters and digits; everything else separates).
 * - Plain terms are word sequences, indexed by their first word: each word of the message looks up the
 *   terms that start with it, and only those compare their following words. "ass" never matches "class",
 *   and "f.r.e.e" is caught by "f r e e" because punctuation separates words on both sides.
 * - Wildcard terms (`*` for any letters or digits inside a word) are indexed by the first letter of their
 *   first word, or the last when it starts with `*`; only a first word open at both ends (`*spam*`) is
 *   tried at every word. Each wildcard word is matched by a scan
 *   of its literal parts (`globMatcher`), never by a backtracking regex: `**********x` costs one pass.
 *   A wildcard term whose literal parts are not all in the message is not tried at all.
 * - Regular expressions run on RE2 (`shared/safe-regex.ts`), joined into one test while that stays cheap
 *   (`regex-terms.ts`), within the rule set's budget of compiled steps; those past the budget are refused.
 *
 * The caller hands `match` the message already folded (shared/normalise-text.ts), and every term is folded
 * the same way here.
 */
import type { BlockedTerm } from '../../shared/automod';
import { foldLetters } from '../../shared/normalise-text';
import { checkRegex, MAX_REGEX_TERMS, MAX_RULE_SET_STEPS } from '../../shared/safe-regex';
import { charMemo } from './char-memo';
import { type RegexTerm, RegexTerms } from './regex-terms';

export interface TermMatcher {
  /** The first blocked term in `text` (folded by `foldLetters`), as the streamer wrote it, or null. */
  match(text: string): string | null;
}

/** A term the matcher could not use, with why (shown in the panel next to the term). */
export interface RefusedTerm {
  pattern: string;
  reason: string;
}

interface Sequence {
  pattern: string;
  /** The first word's letters before any `*`: a word not starting with them cannot match (no regex run). */
  prefix: string;
  /** One test per word of the term: an exact word, or a matcher for a word with `*`. */
  words: (string | WordMatcher)[];
  /** The literal parts of a wildcard term's words (as indexes into the matcher's list of distinct parts): all
   * must occur in the message for it to match. */
  literals: number[];
}

type WordMatcher = (word: string) => boolean;

const SEPARATORS = /[^\p{L}\p{N}*]+/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** Whether a code point above ASCII is a letter or a digit. */
const isLetterOrDigit = charMemo((codePoint: number) => LETTER_OR_DIGIT.test(String.fromCodePoint(codePoint)));

/**
 * The lower-case words of `text`, letters and digits only. A scan rather than `split(/[^\p{L}\p{N}]+/u)`:
 * unicode-aware split is several times slower, and this runs on every chat message.
 */
export function wordsOf(text: string): string[] {
  return wordsOfLower(text.toLowerCase());
}

/** `wordsOf` for text already lower-cased (a folded message is). */
function wordsOfLower(lower: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const code = i < lower.length ? lower.charCodeAt(i) : 32;
    const inWord =
      (code >= 97 && code <= 122) ||
      (code >= 48 && code <= 57) ||
      (code > 127 && isLetterOrDigit(lower.codePointAt(i)!));
    if (inWord) {
      if (start < 0) {
        start = i;
      }
      // A code point outside the BMP takes two code units; both belong to the word.
      if (code >= 0xd800 && code <= 0xdbff) {
        i++;
      }
    } else if (start >= 0) {
      words.push(lower.slice(start, i));
      start = -1;
    }
  }
  return words;
}

function termWords(pattern: string): string[] {
  return pattern.toLowerCase().split(SEPARATORS).filter(Boolean);
}

function wordTest(word: string): string | WordMatcher {
  return word.includes('*') ? globMatcher(word) : word;
}

/**
 * A whole-word test for `pattern` where `*` stands for any run of characters: the first literal part must
 * start the word, the last end it, and the ones between are found left to right, each at its first place
 * after the previous one. Taking the first place is never wrong for `*`-only patterns, so nothing is
 * retried: the cost is one scan of the word per part.
 */
export function globMatcher(pattern: string): WordMatcher {
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts.at(-1)!;
  const middle = parts.slice(1, -1).filter(Boolean);
  const least = first.length + last.length + middle.reduce((sum, part) => sum + part.length, 0);
  return (word) => {
    if (word.length < least || !word.startsWith(first) || !word.endsWith(last)) {
      return false;
    }
    let at = first.length;
    const end = word.length - last.length;
    for (const part of middle) {
      const found = word.indexOf(part, at);
      if (found < 0 || found + part.length > end) {
        return false;
      }
      at = found + part.length;
    }
    return true;
  };
}

function matchesAt(words: readonly string[], at: number, sequence: Sequence): boolean {
  if (at + sequence.words.length > words.length) {
    return false;
  }
  return sequence.words.every((test, k) => (typeof test === 'string' ? words[at + k] === test : test(words[at + k]!)));
}

/**
 * Whether a wildcard term's literal parts all occur in the message, each part searched for at most once per
 * message (`seen`: 0 not yet, 1 found, 2 not there): only the terms a word's index reaches ask.
 */
interface Presence {
  text: string;
  parts: readonly string[];
  seen: Uint8Array;
}

function usable(sequence: Sequence, presence: Presence | null): boolean {
  if (presence === null) {
    return true;
  }
  for (const part of sequence.literals) {
    let state = presence.seen[part]!;
    if (state === 0) {
      state = presence.text.includes(presence.parts[part]!) ? 1 : 2;
      presence.seen[part] = state;
    }
    if (state === 2) {
      return false;
    }
  }
  return true;
}

/** The first sequence of `list` that matches at word `at`; a cheap prefix test guards each word test. */
function firstMatch(
  list: readonly Sequence[] | undefined,
  words: readonly string[],
  at: number,
  presence: Presence | null,
): string | null {
  if (list === undefined) {
    return null;
  }
  const word = words[at]!;
  for (const sequence of list) {
    if (word.startsWith(sequence.prefix) && usable(sequence, presence) && matchesAt(words, at, sequence)) {
      return sequence.pattern;
    }
  }
  return null;
}

/** Compiles the blocked terms; terms it cannot use come back in `refused`, with why. */
export function buildTermMatcher(terms: readonly BlockedTerm[]): { matcher: TermMatcher; refused: RefusedTerm[] } {
  const refused: RefusedTerm[] = [];
  const byFirstWord = new Map<string, Sequence[]>();
  const byFirstLetter = new Map<string, Sequence[]>();
  const byLastLetter = new Map<string, Sequence[]>();
  const anywhere: Sequence[] = [];
  // Each distinct literal part once: 450 wildcard terms share far fewer parts than they hold.
  const parts: string[] = [];
  const partIndex = new Map<string, number>();
  const indexOf = (part: string): number => {
    let index = partIndex.get(part);
    if (index === undefined) {
      index = parts.push(part) - 1;
      partIndex.set(part, index);
    }
    return index;
  };
  const regexes: RegexTerm[] = [];
  let steps = 0;
  const add = <K>(map: Map<K, Sequence[]>, key: K, sequence: Sequence): void => {
    const list = map.get(key);
    if (list) {
      list.push(sequence);
    } else {
      map.set(key, [sequence]);
    }
  };
  for (const term of terms) {
    const pattern = term.pattern.trim();
    if (term.kind === 'regex') {
      // The same budget the save check applies (shared/automod.ts), for a settings file written by hand.
      const checked = regexes.length < MAX_REGEX_TERMS ? checkRegex(pattern) : null;
      if (checked === null) {
        refused.push({ pattern, reason: `at most ${MAX_REGEX_TERMS} regular expressions` });
      } else if (!checked.ok) {
        refused.push({ pattern, reason: checked.error.reason });
      } else if (steps + checked.value.steps > MAX_RULE_SET_STEPS) {
        refused.push({
          pattern,
          reason: `together the regular expressions may compile to at most ${MAX_RULE_SET_STEPS} steps`,
        });
      } else {
        steps += checked.value.steps;
        regexes.push({ regex: checked.value, pattern });
      }
      continue;
    }
    const folded = foldLetters(pattern);
    const words = termWords(term.kind === 'plain' ? folded.replace(/\*/g, ' ') : folded);
    if (words.length === 0 || !words.some((word) => LETTER_OR_DIGIT.test(word))) {
      refused.push({ pattern, reason: 'needs at least one letter or digit' });
      continue;
    }
    const literals = words.flatMap((word) => (word.includes('*') ? word.split('*').filter(Boolean).map(indexOf) : []));
    const sequence: Sequence = { pattern, prefix: words[0]!.split('*')[0]!, words: words.map(wordTest), literals };
    const first = words[0]!;
    if (!first.includes('*')) {
      add(byFirstWord, first, sequence);
    } else if (first.startsWith('*') && !first.endsWith('*')) {
      add(byLastLetter, first.at(-1)!, sequence);
    } else if (first.startsWith('*')) {
      anywhere.push(sequence);
    } else {
      add(byFirstLetter, first[0]!, sequence);
    }
  }

  const regexTerms = new RegexTerms(regexes);
  const hasWordTerms = byFirstWord.size > 0 || byFirstLetter.size > 0 || byLastLetter.size > 0 || anywhere.length > 0;
  // One presence record for every message, cleared before each: `match` runs to its end before the next call,
  // and a typed array made per message cost more than the lookups it saves.
  const presence: Presence | null = parts.length === 0 ? null : { text: '', parts, seen: new Uint8Array(parts.length) };
  return {
    refused,
    matcher: {
      match(text) {
        if (hasWordTerms) {
          // Wildcard terms are tried only where their literal parts all occur in the message.
          if (presence !== null) {
            presence.text = text;
            presence.seen.fill(0);
          }
          const tryAnywhere =
            presence === null || anywhere.length === 0 ? anywhere : anywhere.filter((s) => usable(s, presence));
          // The text comes folded (`foldLetters`), so lower-case already.
          const words = wordsOfLower(text);
          for (let i = 0; i < words.length; i++) {
            const word = words[i]!;
            if (word === '') {
              continue;
            }
            // An index without terms is not asked: four lookups a word add up over a 500-character line.
            const hit =
              firstMatch(byFirstWord.get(word), words, i, presence) ??
              (byFirstLetter.size > 0 ? firstMatch(byFirstLetter.get(word[0]!), words, i, presence) : null) ??
              (byLastLetter.size > 0 ? firstMatch(byLastLetter.get(word.at(-1)!), words, i, presence) : null) ??
              (tryAnywhere.length > 0 ? firstMatch(tryAnywhere, words, i, null) : null);
            if (hit !== null) {
              return hit;
            }
          }
        }
        return regexTerms.first(text);
      },
    },
  };
}

/**
 * Blocked terms as one matcher (docs/automod.md, "Blocked terms"). Main judges every chat message with it
 * before the message is shown, so its cost per message must not grow with the number of terms:
 *
 * - The message is split once into lower-case words (letters and digits; everything else separates).
 * - Plain terms are word sequences, indexed by their first word: each word of the message looks up the
 *   terms that start with it, and only those compare their following words. "ass" never matches "class",
 *   and "f.r.e.e" is caught by "f r e e" because punctuation separates words on both sides.
 * - Wildcard terms (`*` for any letters or digits inside a word) are indexed by the first letter of their
 *   first word; a term starting with `*` is tried at every word.
 * - Regular expressions run one by one on the message as sent, after passing the safety check
 *   (`shared/safe-regex.ts`).
 */
import type { BlockedTerm } from '../../shared/automod';
import { checkRegex } from '../../shared/safe-regex';

export interface TermMatcher {
  /** The first blocked term in `text`, as the streamer wrote it, or null. */
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
  /** One test per word of the term: an exact word, or an anchored regex for a word with `*`. */
  words: (string | RegExp)[];
}

const SEPARATORS = /[^\p{L}\p{N}*]+/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * The lower-case words of `text`, letters and digits only. A scan rather than `split(/[^\p{L}\p{N}]+/u)`:
 * unicode-aware split is several times slower, and this runs on every chat message.
 */
export function wordsOf(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= lower.length; i++) {
    const code = i < lower.length ? lower.charCodeAt(i) : 32;
    const inWord =
      (code >= 97 && code <= 122) ||
      (code >= 48 && code <= 57) ||
      (code > 127 && LETTER_OR_DIGIT.test(String.fromCodePoint(lower.codePointAt(i)!)));
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

function wordTest(word: string): string | RegExp {
  if (!word.includes('*')) {
    return word;
  }
  const source = word
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\p{L}\\p{N}]*');
  return new RegExp(`^${source}$`, 'u');
}

function matchesAt(words: readonly string[], at: number, sequence: Sequence): boolean {
  if (at + sequence.words.length > words.length) {
    return false;
  }
  return sequence.words.every((test, k) =>
    typeof test === 'string' ? words[at + k] === test : test.test(words[at + k]!),
  );
}

/** The first sequence of `list` that matches at word `at`; a cheap prefix test guards each regex. */
function firstMatch(list: readonly Sequence[] | undefined, words: readonly string[], at: number): string | null {
  if (list === undefined) {
    return null;
  }
  const word = words[at]!;
  for (const sequence of list) {
    if (word.startsWith(sequence.prefix) && matchesAt(words, at, sequence)) {
      return sequence.pattern;
    }
  }
  return null;
}

export function buildTermMatcher(terms: readonly BlockedTerm[]): { matcher: TermMatcher; refused: RefusedTerm[] } {
  const refused: RefusedTerm[] = [];
  const byFirstWord = new Map<string, Sequence[]>();
  const byFirstLetter = new Map<string, Sequence[]>();
  const anywhere: Sequence[] = [];
  const regexes: { regex: RegExp; pattern: string }[] = [];
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
      const checked = checkRegex(pattern);
      if (checked.ok) {
        regexes.push({ regex: checked.regex, pattern });
      } else {
        refused.push({ pattern, reason: checked.reason });
      }
      continue;
    }
    const words = termWords(term.kind === 'plain' ? pattern.replace(/\*/g, ' ') : pattern);
    if (words.length === 0) {
      refused.push({ pattern, reason: 'needs at least one letter or digit' });
      continue;
    }
    const sequence: Sequence = { pattern, prefix: words[0]!.split('*')[0]!, words: words.map(wordTest) };
    const first = words[0]!;
    if (!first.includes('*')) {
      add(byFirstWord, first, sequence);
    } else if (first.startsWith('*')) {
      anywhere.push(sequence);
    } else {
      add(byFirstLetter, first[0]!, sequence);
    }
  }

  return {
    refused,
    matcher: {
      match(text) {
        if (byFirstWord.size > 0 || byFirstLetter.size > 0 || anywhere.length > 0) {
          const words = wordsOf(text);
          for (let i = 0; i < words.length; i++) {
            const word = words[i]!;
            if (word === '') {
              continue;
            }
            const hit =
              firstMatch(byFirstWord.get(word), words, i) ??
              firstMatch(byFirstLetter.get(word[0]!), words, i) ??
              firstMatch(anywhere, words, i);
            if (hit !== null) {
              return hit;
            }
          }
        }
        for (const { regex, pattern } of regexes) {
          if (regex.test(text)) {
            return pattern;
          }
        }
        return null;
      },
    },
  };
}

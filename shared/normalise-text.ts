/**
 * What auto-moderation reads a chat message as (docs/automod.md, "What the rules read"). Spammers dodge a
 * word filter with text that looks the same but is spelled with other characters: invisible ones between
 * the letters (zero-width space, soft hyphen, joiners, variation selectors, tag characters), accents piled
 * on as combining marks, fullwidth or "mathematical bold" letters, and Cyrillic or Greek look-alikes. Each
 * rule therefore reads a folded copy of the message, never the message as sent:
 *
 * - `stripInvisible`: format characters (Unicode category Cf) and the other default-ignorable code points
 *   removed. Nothing a viewer can see is lost.
 * - `foldCase`: that, then compatibility decomposition (NFKD: 𝐅 → F, ｆ → f, ﬁ → fi) with the combining
 *   marks dropped, never more than twice as long as the message. Case survives, so the capitals rule
 *   reads this.
 * - `foldLetters`: that, lower-cased, with each look-alike from the `confusables` map replaced by the Latin
 *   letter it imitates. Blocked terms, regular expressions and the repeat rules read this, and a term is
 *   folded the same way, so "frее" (Cyrillic е) is caught by "free".
 */
import { confusablesMap } from 'confusables';

// Cf: soft hyphen, zero-width space/joiners, word joiner, BOM, bidi controls, tag characters.
// Default ignorables add variation selectors, the combining grapheme joiner and the Hangul fillers.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const INVISIBLE_OR_MARK = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}]/gu;
/** Plain printable ASCII: nothing to fold but case, which is most chat and the fast path. */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * Where the confusables map disagrees with itself once lower-cased: it sends Greek and Cyrillic i-like
 * letters to "l" (they resemble a capital I), while a Latin capital I lower-cases to "i".
 */
const I_LIKE = new Map([...'ιіıɩӏǀ'].map((c) => [c, 'i']));

/**
 * Compatibility decomposition of `text`, at most twice its length: one ﷺ decomposes into 18 characters,
 * so a line of them would multiply every rule's work. Past that, a character whose form is longer than two
 * keeps its own.
 */
function decompose(text: string): string {
  const decomposed = text.normalize('NFKD');
  if (decomposed.length <= 2 * text.length) {
    return decomposed;
  }
  let out = '';
  for (const char of text) {
    const form = char.normalize('NFKD');
    out += form.length <= 2 ? form : char;
  }
  return out;
}

/** `text` without format characters and other default-ignorable code points. */
export function stripInvisible(text: string): string {
  return PLAIN.test(text) ? text : text.replace(INVISIBLE, '');
}

/** Invisible characters and combining marks removed, compatibility forms decomposed; case kept. */
export function foldCase(text: string): string {
  // Only the runs of non-ASCII characters change, and most chat is ASCII with an emoji or two.
  return PLAIN.test(text) ? text : text.replace(NOT_ASCII_RUN, foldRun);
}

const NOT_ASCII_RUN = /[^\p{ASCII}]+/gu;

/** A run of non-ASCII characters decomposed, then without format characters and marks (NFKD leaves those). */
function foldRun(run: string): string {
  return decompose(run).replace(INVISIBLE_OR_MARK, '');
}

/** `foldCase`, lower-cased, with look-alike letters replaced by the Latin letter they imitate. */
export function foldLetters(text: string): string {
  return PLAIN.test(text) ? text.toLowerCase() : lettersOf(foldCase(text));
}

/** Both folds of `text`, the second made from the first. */
export function fold(text: string): { cased: string; letters: string } {
  if (PLAIN.test(text)) {
    return { cased: text, letters: text.toLowerCase() };
  }
  const cased = foldCase(text);
  return { cased, letters: lettersOf(cased) };
}

/**
 * `cased` (from `foldCase`) lower-cased with look-alikes replaced. ASCII stays itself (the map also sends
 * "|" and "1" to "l", which would change plain text); the rest is looked up one character at a time, and
 * only the rest: most chat is ASCII with an emoji or two.
 */
function lettersOf(cased: string): string {
  return cased.replace(NOT_ASCII, lookAlike).toLowerCase();
}

const NOT_ASCII = /[^\p{ASCII}]/gu;

/** The Latin letter `char` imitates: the small letter's look-alike first, then the capital's (Greek Μ, μ). */
function lookAlike(char: string): string {
  const lower = char.toLowerCase();
  return I_LIKE.get(lower) ?? confusablesMap.get(lower) ?? confusablesMap.get(char) ?? lower;
}

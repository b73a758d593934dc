/**
 * What auto-moderation reads a chat message as (docs/automod.md, "What the rules read"). Spammers dodge a
 * word filter with text that looks the same but is spelled with other characters: invisible ones between
 * the letters (zero-width space, soft hyphen, joiners, variation selectors, tag characters), accents piled
 * on as combining marks, fullwidth or "mathematical bold" letters, and Cyrillic or Greek look-alikes. Each
 * rule therefore reads a folded copy of the message, never the message as sent:
 *
 * - `stripInvisible`: format characters (Unicode category Cf) and the other default-ignorable code points
 *   removed. Nothing a viewer can see is lost.
 * - `foldCase`: that and the control characters, then compatibility decomposition (NFKD: 𝐅 → F, ｆ → f,
 *   ﬁ → fi, ⅷ → viii) with the combining marks dropped, within an allowance for the whole message. Case
 *   survives, so the capitals rule reads this.
 * - `foldLetters`: that, lower-cased, with each look-alike from the `confusables` map (and the few it misses,
 *   `MISSED_LOOK_ALIKES`) replaced by the Latin letter it imitates. Blocked terms, regular expressions and the repeat rules read this, and a term is
 *   folded the same way, so "frее" (Cyrillic е) is caught by "free".
 */
import { confusablesMap } from 'confusables';

// Cf: soft hyphen, zero-width space/joiners, word joiner, BOM, bidi controls, tag characters.
// Default ignorables add variation selectors, the combining grapheme joiner and the Hangul fillers.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
// Control characters (Cc) other than tab and newline show nothing either: "fr\u0001ee" reads as "free".
const INVISIBLE_MARK_OR_CONTROL = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{M}]|[^\P{Cc}\t\n]/gu;
/** Plain printable ASCII: nothing to fold but case, which is most chat and the fast path. */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * Where the confusables map disagrees with itself once lower-cased: it sends Greek and Cyrillic i-like
 * letters to "l" (they resemble a capital I), while a Latin capital I lower-cases to "i".
 */
const I_LIKE = new Map([...'ιіıɩӏǀ'].map((c) => [c, 'i']));

/**
 * Look-alikes the confusables map has no entry for (docs/decisions.md, "What the confusables map does and
 * does not do"): small capitals ꜰ and ꞯ, the r rotunda ꝛ, and the Canadian syllabic ᗴ that "fancy text"
 * generators use for E beside ᖴ and ᖇ, which the map does send to F and R.
 */
const MISSED_LOOK_ALIKES = new Map([
  ['ꜰ', 'f'],
  ['ꞯ', 'q'],
  ['ꝛ', 'r'],
  ['ᗴ', 'e'],
]);

/**
 * How much longer than the message its folds may grow, for the whole message: one ﷺ decomposes into 18
 * characters, so a line of them would multiply every rule's work. The allowance is shared by the message's
 * runs, so a ligature (ﬃ) or Roman numeral (ⅷ) alone is always spelled out.
 */
const EXTRA_ALLOWANCE = 64;
/**
 * Forms at most this long are spelled out even past the allowance (ﬃ → ffi, ⅷ → viii): else a line padded with
 * them would keep the one inside a blocked term as it is. A fold is thus at most four times the message.
 */
const SHORT_FORM = 4;
/** What the runs of the message being folded may still add; `foldCase` sets it, so no closure per message. */
let growthLeft = 0;

/** Compatibility decomposition of `run`, within what the message may still grow (`growthLeft`). */
function decompose(run: string): string {
  const decomposed = run.normalize('NFKD');
  const growth = decomposed.length - run.length;
  if (growth <= growthLeft) {
    growthLeft -= growth;
    return decomposed;
  }
  let out = '';
  for (const char of run) {
    const form = char.normalize('NFKD');
    if (form.length <= SHORT_FORM) {
      out += form;
    } else if (form.length - char.length <= growthLeft) {
      growthLeft -= form.length - char.length;
      out += form;
    } else {
      out += char;
    }
  }
  return out;
}

/** `text` without format characters and other default-ignorable code points. */
export function stripInvisible(text: string): string {
  return PLAIN.test(text) ? text : text.replace(INVISIBLE, '');
}

/** Invisible characters and combining marks removed, compatibility forms decomposed; case kept. */
export function foldCase(text: string): string {
  // Only the runs of other characters change, and most chat is printable ASCII with an emoji or two.
  if (PLAIN.test(text)) {
    return text;
  }
  growthLeft = text.length + EXTRA_ALLOWANCE;
  return text.replace(NOT_PLAIN_RUN, foldRun);
}

/**
 * Runs of what is not printable ASCII, tab or newline: other scripts, symbols, and control characters. Without
 * the `u` flag, which makes the scan of a long line several times slower: both halves of a surrogate pair are
 * outside the class, so a run holds whole pairs either way.
 */
const NOT_PLAIN_RUN = /[^\t\n\x20-\x7e]+/g;

/** A run decomposed, then without format and control characters and marks (NFKD leaves those). */
function foldRun(run: string): string {
  return decompose(run).replace(INVISIBLE_MARK_OR_CONTROL, '');
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
  return cased.replace(NOT_ASCII_RUN, lookAlikes).toLowerCase();
}

/** Runs of what is not ASCII, found without the `u` flag (as `NOT_PLAIN_RUN`), looked up a character at a time. */
const NOT_ASCII_RUN = /[\u0080-\uffff]+/g;

function lookAlikes(run: string): string {
  if (run.length === 1) {
    return lookAlike(run);
  }
  let out = '';
  for (const char of run) {
    out += lookAlike(char);
  }
  return out;
}

/** The Latin letter `char` imitates: the small letter's look-alike first, then the capital's (Greek Μ, μ). */
function lookAlike(char: string): string {
  const lower = char.toLowerCase();
  return (
    I_LIKE.get(lower) ?? MISSED_LOOK_ALIKES.get(lower) ?? confusablesMap.get(lower) ?? confusablesMap.get(char) ?? lower
  );
}

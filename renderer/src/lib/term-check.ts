/**
 * "Add term" judges a blocked term the way Save will ([Regular expressions](../../../docs/automod.md#regular-expressions)):
 * the same length limit, and for a regular expression the same check main runs (`refusedRegexes`, RE2's
 * syntax and the step budgets, with the rule set's other patterns counted first), so a term that would be
 * refused never reaches the list.
 */
import type { AutomodSettings } from '../../../shared/automod';
import { refusedRegexes } from '../../../shared/safe-regex';

type BlockedTerm = AutomodSettings['blockedTerms']['terms'][number];

/** The longest term the settings keep (the blocked-term schema in shared/automod.ts). */
export const MAX_TERM_LENGTH = 200;

/** Why `pattern` cannot be added to `terms`, in plain words, or null when it can. */
export function termRefusal(terms: readonly BlockedTerm[], pattern: string, kind: BlockedTerm['kind']): string | null {
  const text = pattern.trim();
  if (text === '') {
    return 'Type the word, phrase or pattern to block first.';
  }
  if (text.length > MAX_TERM_LENGTH) {
    return `A term may be at most ${MAX_TERM_LENGTH} characters; this one has ${text.length}.`;
  }
  if (terms.some((term) => term.kind === kind && term.pattern === text)) {
    return 'This term is already in the list.';
  }
  if (kind !== 'regex') {
    return null;
  }
  const others = terms.filter((term) => term.kind === 'regex').map((term) => term.pattern);
  const reason = refusedRegexes([...others, text]).at(-1);
  return reason ? `This regular expression cannot be used: ${reason}.` : null;
}

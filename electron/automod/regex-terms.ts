/**
 * A rule set's regular expressions as one test per message (docs/decisions.md, "Regular expressions run on
 * RE2"). On RE2 in JavaScript, twenty ordinary patterns cost about 28 µs a chat line one by one, and under
 * 2 µs joined into one pattern that runs first: most lines match none, and only a line that matches the
 * union is tried against each pattern to name the one it broke.
 *
 * Joined is not always cheaper. RE2's lazy DFA builds a state for each new set of places the patterns can
 * be in; joined, those sets combine across patterns, so patterns whose states multiply make nearly every
 * line build new states, each costing time in proportion to the union's size (milliseconds a line, where
 * the patterns one by one take a tenth of one). That is counted, not timed: a test that adds more than
 * `MAX_NEW_STATES` states to the union's cache, or fills it, is a strike, and after `SLOW_STRIKES` the
 * patterns run one by one until they change. Ordinary chat adds none once the first lines are in (at most
 * 10 a line over 20,000 raid lines with the benchmark's 20 patterns).
 */
import { type SafeRegex, unionOf } from '../../shared/safe-regex';

/** New cache states one test of the union may add without a strike. */
export const MAX_NEW_STATES = 32;
/** Strikes after which the union is given up for this rule set. */
export const SLOW_STRIKES = 2;

export interface RegexTerm {
  regex: SafeRegex;
  /** As the streamer wrote it. */
  pattern: string;
}

export class RegexTerms {
  readonly #terms: readonly RegexTerm[];
  #union: SafeRegex | null;
  #strikes = 0;

  constructor(terms: readonly RegexTerm[]) {
    this.#terms = terms;
    this.#union = terms.length > 1 ? unionOf(terms.map((term) => term.regex)) : null;
  }

  /** Whether the union is still tried first. */
  get joined(): boolean {
    return this.#union !== null;
  }

  /** The first pattern `text` matches, as the streamer wrote it, or null. */
  first(text: string): string | null {
    const union = this.#union;
    if (union !== null) {
      const before = union.cachedStates();
      const hit = union.test(text);
      const after = union.cachedStates();
      if ((after < before || after - before > MAX_NEW_STATES) && ++this.#strikes >= SLOW_STRIKES) {
        this.#union = null;
      }
      if (!hit) {
        return null;
      }
    }
    for (const { regex, pattern } of this.#terms) {
      if (regex.test(text)) {
        return pattern;
      }
    }
    return null;
  }
}

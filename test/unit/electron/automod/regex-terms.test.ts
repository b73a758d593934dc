import { describe, expect, it } from 'vitest';
import { RegexTerms } from '../../../../electron/automod/regex-terms';
import { checkRegex } from '../../../../shared/safe-regex';
import { adversarialLines, largestRuleSets } from '../../../../bench/lib/automod-adversarial';

const terms = (patterns: readonly string[]) =>
  patterns.map((pattern) => {
    const checked = checkRegex(pattern);
    if (!checked.ok) {
      throw new Error(checked.error.reason);
    }
    return { regex: checked.value, pattern };
  });

describe("a rule set's regular expressions", () => {
  it('run joined for ordinary chat, and name the pattern a line broke', () => {
    const rules = new RegexTerms(terms(['b[i1]tc[o0]in\\s+giveaway', '(free|cheap) (views|followers)', '^!\\w+$']));
    for (let i = 0; i < 500; i++) {
      expect(rules.first(`what a clutch play number ${i}, gg`)).toBeNull();
    }
    expect(rules.first('cheap views here')).toBe('(free|cheap) (views|followers)');
    expect(rules.first('b1tc0in   giveaway')).toBe('b[i1]tc[o0]in\\s+giveaway');
    expect(rules.joined).toBe(true);
  });

  it('run one by one once lines make the joined pattern build state after state, with the same answers', () => {
    const patterns = largestRuleSets()[1]!.rules.blockedTerms.terms.filter((t) => t.kind === 'regex');
    const joined = new RegexTerms(terms(patterns.map((t) => t.pattern)));
    const single = terms(patterns.map((t) => t.pattern));
    for (const line of adversarialLines(40)) {
      expect(joined.first(line)).toBe(single.find((t) => t.regex.test(line))?.pattern ?? null);
    }
    expect(joined.joined).toBe(false);
  });
});

/**
 * The words of a bulk action's confirm and of its result toast, kept apart from the views so each
 * plural and each mix of successes and failures is tested once ("Accept 1 redemption of Hydrate?",
 * "10 accepted, 2 failed").
 */
import { plural } from '../../../shared/plural';
import type { RedemptionVerb } from './state/redemptions.svelte';

const VERB_WORD: Record<RedemptionVerb, { ask: string; done: string }> = {
  accept: { ask: 'Accept', done: 'accepted' },
  reject: { ask: 'Reject', done: 'rejected' },
};

/**
 * "Accept 12 redemptions of “Hydrate!”?", or "… of 3 rewards?" when the selection spans several. The
 * reward's name is quoted: a streamer's title ends in its own punctuation ("Hydrate!?" read as a typo).
 */
export function redemptionConfirmTitle(verb: RedemptionVerb, count: number, rewardTitles: readonly string[]): string {
  const titles = [...new Set(rewardTitles)];
  const of = titles.length === 1 ? `“${titles[0]}”` : plural(titles.length, 'reward');
  return `${VERB_WORD[verb].ask} ${plural(count, 'redemption')} of ${of}?`;
}

export interface RedemptionOutcome {
  tone: 'ok' | 'error';
  text: string;
  /** One line per distinct reason, with how many it stopped. */
  details: string[];
}

/**
 * The toast after a bulk accept or reject of `asked` ids: how many left the queue, how many did not, and
 * why (each item's own reason, or the reason the whole call failed).
 */
export function redemptionOutcome(
  verb: RedemptionVerb,
  asked: number,
  failures: readonly (string | null)[],
  callError: string | null,
): RedemptionOutcome {
  const failed = failures.length;
  const done = asked - failed;
  const word = VERB_WORD[verb].done;
  if (failed === 0) {
    return { tone: 'ok', text: `${done} ${word}`, details: [] };
  }
  const reasons = new Map<string, number>();
  for (const reason of failures) {
    const line = reason ?? callError ?? 'Not done: the queue could not be reached.';
    reasons.set(line, (reasons.get(line) ?? 0) + 1);
  }
  const details = [...reasons].map(([reason, n]) => (reasons.size === 1 && n === failed ? reason : `${n}: ${reason}`));
  const text = done === 0 ? `None ${word}: ${failed} failed` : `${done} ${word}, ${failed} failed`;
  return { tone: 'error', text, details };
}

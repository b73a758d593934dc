/**
 * The auto-moderation rules both automod figures run with: 200 blocked terms (150 plain, 50
 * wildcard) plus 20 regexes, and every spam rule on, nobody exempt, acting for real (no dry run).
 */
import { type AutomodSettings, DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { seededRandom } from './raid-chat';

export function benchAutomodSettings(): AutomodSettings {
  const s = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
  const rng = seededRandom(7);
  const word = (): string =>
    Array.from({ length: 5 + Math.floor(rng() * 6) }, () => String.fromCharCode(97 + Math.floor(rng() * 26))).join('');
  s.enabled = true;
  s.dryRun = false;
  s.exemptBadges = [];
  s.blockedTerms.terms = [
    ...Array.from({ length: 150 }, () => ({ pattern: `${word()} ${word()}`, kind: 'plain' as const })),
    ...Array.from({ length: 50 }, () => ({ pattern: `${word()}*${word().slice(0, 3)}`, kind: 'wildcard' as const })),
    ...Array.from({ length: 20 }, (_, i) => ({
      pattern: `b[i1]tc[o0]in\\s+${word()}|${word()}${i}\\d{2,4}`,
      kind: 'regex' as const,
    })),
  ];
  s.links.enabled = true;
  s.links.allowSeenChatters = false;
  s.caps.enabled = true;
  s.emotes.enabled = true;
  s.repeatedChars.enabled = true;
  s.repeatedMessages.enabled = true;
  s.rate.enabled = true;
  return s;
}

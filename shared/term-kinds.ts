/**
 * A blocked term's kind as the streamer reads it, one set of names for every place that shows one: the
 * auto-moderation editor's Kind picker and its list of terms, and an import's confirm ("Left out: the
 * regular expression … is refused"). The stored values (`plain`, `wildcard`, `regex`) are the settings
 * file's words, never shown ([blocked terms](../docs/automod.md#blocked-terms)).
 */
import type { BlockedTerm } from './automod';

export type TermKind = BlockedTerm['kind'];

/** Each kind's name, in the order the picker offers them. */
export const TERM_KINDS: readonly { kind: TermKind; label: string }[] = [
  { kind: 'plain', label: 'Words' },
  { kind: 'wildcard', label: 'Wildcard *' },
  { kind: 'regex', label: 'Regular expression' },
];

/** The name of `kind`, as the picker shows it. */
export function termKindLabel(kind: TermKind): string {
  return TERM_KINDS.find((k) => k.kind === kind)?.label ?? kind;
}

/** The name inside a sentence: "the regular expression … is refused". */
export function termKindWords(kind: TermKind): string {
  return kind === 'wildcard' ? 'wildcard term' : termKindLabel(kind).toLowerCase();
}

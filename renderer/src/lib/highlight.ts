/**
 * Highlight terms (docs/chat-tools.md): each term matched as whole words in any case, `*` standing for any
 * letters as in auto-moderation's blocked terms. Compiled once per settings change into one list the chat
 * rows consult, so a row costs one regex test per term (at most 50).
 */
import type { Highlight } from '../../../shared/chat-tools';

export type HighlightMatcher = (content: string) => Highlight | null;

/** The first highlight whose term the content contains; terms are tried in the streamer's order. */
export function compileHighlights(highlights: readonly Highlight[]): HighlightMatcher {
  const compiled = highlights.map((h) => ({ h, re: termRegex(h.term) }));
  if (compiled.length === 0) {
    return () => null;
  }
  return (content) => compiled.find(({ re }) => re.test(content))?.h ?? null;
}

function termRegex(term: string): RegExp {
  const body = term
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\p{L}\\p{N}_]*');
  // Word edges that understand letters beyond ASCII, so "café" does not match inside "cafés".
  return new RegExp(`(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])`, 'iu');
}

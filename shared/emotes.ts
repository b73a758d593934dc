/**
 * Kick's emote tokens: chat content carries emotes inline as `[emote:<id>:<name>]` (there is no emotes
 * endpoint, [reference §5.8](../docs/kick-wire-reference.md#58-payloads-v1-field-by-field)). One pattern for
 * every reader (auto-moderation, links, the live merge, the panel, the sandbox), so they cannot disagree about
 * what an emote is. The bounds (20 digits, 100 name characters) keep a hostile line from making the pattern
 * scan far.
 */
import type { ChatMessageSentPayload } from './kick/events';

/** The token's source, for patterns that join it with others (the panel's emote-or-mention split). */
export const EMOTE_TOKEN_SOURCE = String.raw`\[emote:(\d{1,20}):([^\]\s]{1,100})\]`;

/**
 * Every emote token in a text, id in group 1 and name in group 2. Global: use it only with `replace`,
 * `match` and `matchAll`, which do not carry `lastIndex` from one call to the next (never `test`/`exec`).
 */
export const EMOTE_TOKEN = new RegExp(EMOTE_TOKEN_SOURCE, 'g');

/** The start every token shares: a cheap check before running the pattern. */
export const EMOTE_MARK = '[emote:';

/** The text with each emote token replaced by spaces of its length, so offsets into it still hold. */
export function blankEmotes(content: string): string {
  return content.includes(EMOTE_MARK) ? content.replace(EMOTE_TOKEN, (token) => ' '.repeat(token.length)) : content;
}

/** The text with each emote token shown as its name: for quotes and screen-reader summaries. */
export function emoteNamesOnly(content: string): string {
  return content.includes(EMOTE_MARK) ? content.replace(EMOTE_TOKEN, '$2') : content;
}

/**
 * The webhook's `emotes` list for a content: each emote id with the 0-based, inclusive offsets of its whole
 * tokens (UTF-16 units), null when there are none.
 */
export function emotePositions(content: string): ChatMessageSentPayload['emotes'] {
  if (!content.includes(EMOTE_MARK)) {
    return null;
  }
  const byId = new Map<string, { s: number; e: number }[]>();
  for (const match of content.matchAll(EMOTE_TOKEN)) {
    const positions = byId.get(match[1]!) ?? [];
    positions.push({ s: match.index, e: match.index + match[0].length - 1 });
    byId.set(match[1]!, positions);
  }
  return byId.size === 0 ? null : [...byId].map(([emote_id, positions]) => ({ emote_id, positions }));
}

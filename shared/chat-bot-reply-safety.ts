/**
 * What a reply sent as the streamer may say (../docs/chat-bot.md#replies-sent-as-you): a message from the
 * streamer's own account carries the streamer's authority, for other chat bots (a `!ban` from the streamer is
 * obeyed) and for viewers reading it. So a viewer's words must never lead such a message:
 * - a template sent as the streamer starts with words the streamer wrote, before any field a viewer
 *   controls (`leadingViewerField`, checked at Save);
 * - a rendered reply sent as the streamer starts with `!` or `/` only when the streamer typed that
 *   character first in the template (`streamerMaySend`, checked at every send, for templates that never
 *   passed Save: an older settings file, one edited by hand).
 * Platform-free: the settings schema and main's bot both use it.
 */

import { errResult, okResult, type Result } from './errors';
/** The fields of a command's reply that a viewer controls: who asked, and what they typed after it. */
export const COMMAND_VIEWER_FIELDS = ['user', 'args'] as const;
/** The field of an event reply a viewer controls: their account name. */
export const EVENT_VIEWER_FIELDS = ['user'] as const;

/**
 * Characters no one sees: format and control characters, and what Unicode marks as ignorable. Some of these
 * are filed as letters (the Hangul fillers U+3164, U+115F, U+1160, U+FFA0 are category Lo), so `\u3164{args}`
 * would pass for words the streamer wrote while the reply reads as the viewer's `!ban streamer`.
 */
const INVISIBLES = /[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]/gu;
/** Whitespace and invisible characters a chat client or another bot skips before reading a command. */
const LEADING_BLANKS = /^[\s\p{Z}\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}]+/u;
/** The characters other chat bots (`!ban`) and chat clients (`/ban`) read as a command. */
const COMMAND_CHARS = new Set(['!', '/', '！', '／']);

/**
 * The viewer-controlled field a template starts with, or null. "Starts with" means: nothing the streamer
 * wrote, no visible letter or digit, comes before it; other fields (`{title}`), punctuation and invisible
 * characters do not count, since `{category}{args}`, `!{args}` or `\u3164{args}` still let the viewer choose how
 * the message begins.
 */
export function leadingViewerField(template: string, viewerFields: readonly string[]): string | null {
  const field = new RegExp(`\\{(${viewerFields.join('|')})\\}`).exec(template);
  if (!field) {
    return null;
  }
  const before = template
    .slice(0, field.index)
    .replace(/\{\w+\}/g, '')
    .replace(INVISIBLES, '');
  return /[\p{L}\p{N}]/u.test(before) ? null : field[1]!;
}

/** The command character `text` begins with once blanks are skipped, or null. */
export function leadingCommandChar(text: string): string | null {
  const first = [...text.replace(LEADING_BLANKS, '')][0];
  return first !== undefined && COMMAND_CHARS.has(first) ? first : null;
}

/**
 * Whether `rendered`, filled from `template`, may go out from the streamer's account; otherwise the reason,
 * in the streamer's words.
 */
export function streamerMaySend(
  template: string,
  rendered: string,
  viewerFields: readonly string[],
): Result<null, string> {
  const leading = leadingViewerField(template, viewerFields);
  if (leading !== null) {
    return errResult(`its template starts with {${leading}}, which a viewer chooses`);
  }
  const command = leadingCommandChar(rendered);
  if (command !== null && leadingCommandChar(template) !== command) {
    return errResult(`it would start with ${command}, which you did not write`);
  }
  return okResult(null);
}

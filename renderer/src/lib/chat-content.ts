/**
 * Chat content as Kick sends it: plain text with emotes inline as `[emote:ID:name]` (there is no emotes
 * endpoint, [design notes](../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 4). Split into text, emote and mention segments for rendering; nothing here
 * produces HTML, so user text never reaches the DOM as markup.
 */
import { blankEmotes, EMOTE_TOKEN_SOURCE, emoteNamesOnly } from '../../../shared/emotes';
import { findLinks } from '../../../shared/links';

export type ContentSegment =
  | { kind: 'text'; text: string }
  | { kind: 'emote'; id: string; name: string }
  | { kind: 'mention'; text: string; self: boolean }
  | { kind: 'link'; text: string; url: string };

const TOKEN = new RegExp(`${EMOTE_TOKEN_SOURCE}|@([A-Za-z0-9_]{1,25})`, 'gi');

/**
 * Splits `content` into segments; `selfName` marks mentions of the streamer (case-insensitive). Links are
 * what auto-moderation judges as links (`findLinks`, docs/automod.md#links), found with the emotes blanked.
 */
export function parseContent(content: string, selfName: string | null): ContentSegment[] {
  const out: ContentSegment[] = [];
  let last = 0;
  for (const link of findLinks(blankEmotes(content))) {
    out.push(...tokens(content.slice(last, link.start), selfName));
    out.push({ kind: 'link', text: link.text, url: link.url });
    last = link.end;
  }
  out.push(...tokens(content.slice(last), selfName));
  return out;
}

/** Text, emote and mention segments of a stretch without links. */
function tokens(content: string, selfName: string | null): ContentSegment[] {
  const out: ContentSegment[] = [];
  const self = selfName?.toLowerCase() ?? null;
  let last = 0;
  for (const match of content.matchAll(TOKEN)) {
    const at = match.index;
    if (at > last) {
      out.push({ kind: 'text', text: content.slice(last, at) });
    }
    if (match[1] !== undefined && match[2] !== undefined) {
      out.push({ kind: 'emote', id: match[1], name: match[2] });
    } else {
      const name = match[3] ?? '';
      out.push({ kind: 'mention', text: match[0], self: self !== null && name.toLowerCase() === self });
    }
    last = at + match[0].length;
  }
  if (last < content.length) {
    out.push({ kind: 'text', text: content.slice(last) });
  }
  return out;
}

/** The last name's pattern: every chat row asks with the same name, so it is compiled once, not per row. */
let mentionPattern: { name: string; re: RegExp } | null = null;

/** Whether the message mentions the streamer: `@name` or the bare name as a word. */
export function mentionsName(content: string, name: string | null): boolean {
  if (!name) {
    return false;
  }
  if (mentionPattern?.name !== name) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    mentionPattern = { name, re: new RegExp(`(^|[^A-Za-z0-9_])@?${escaped}(?![A-Za-z0-9_])`, 'i') };
  }
  return mentionPattern.re.test(content);
}

/** Content with emote tokens shown as their names, for quotes and screen-reader summaries. */
export function plainContent(content: string): string {
  return emoteNamesOnly(content);
}

/** The image URL of an emote on the configured host (files.kick.com, or the sandbox's API URL). */
export function emoteUrl(host: string, id: string): string {
  return `${host.replace(/\/+$/, '')}/emotes/${encodeURIComponent(id)}/fullsize`;
}

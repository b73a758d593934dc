/**
 * The links in a chat message, found once for everyone who needs them (docs/automod.md, "Links"): the panel
 * turns them into links and auto-moderation judges them, so what a streamer sees as a link is exactly what
 * the link rule judged. A link is a word that starts with `http://` or `https://`, or looks like a host: a
 * domain whose last part is letters (any script, or `xn--` punycode), or four numbers with dots (an IP).
 * The word is read as a browser reads an address bar: fullwidth and ideographic full stops (．。｡) count as
 * dots, invisible characters are ignored, and the host is the one `URL` parses out, so
 * `https://evil.io\.kick.com` is a link to evil.io and `http://2130706433` one to 127.0.0.1.
 */
import { blankEmotes } from './emotes';
import { stripInvisible } from './normalise-text';

export interface FoundLink {
  /** Where the link's text starts and ends in the message (UTF-16 offsets, end exclusive). */
  start: number;
  end: number;
  /** The text as sent. */
  text: string;
  /** The address a browser would open (`URL.href`). */
  url: string;
  /** Its host as the browser resolves it: lower case, punycode for other scripts, IPs in dotted form. */
  host: string;
}

// Words: runs without white space or the characters that end a link in text (<, >, ").
const WORD = /[^\s<>"]+/g;
/**
 * A dot or a colon, or a character that reads as one in an address (NFKC gives one: fullwidth and small
 * forms, the one-dot leader, "1." and the like) or that browsers take for a dot (the ideographic full stops).
 * Text without any holds no link.
 */
export const DOT_OR_COLON =
  /[.:\u2024-\u2026\u2488-\u249b\u2a74\u3002\u33c2\u33c7\u33d8\ufe12\ufe13\ufe19\ufe30\ufe52\ufe55\uff0e\uff1a\uff61]|\u{1f100}/u;
// A browser reads `https:evil.com`, `http:/evil.com` and `https:\\evil.com` as https://evil.com/.
const SCHEME = /https?:/i;
const HAS_SCHEME = /^https?:/i;
const FIRST_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// Punctuation that ends a sentence rather than a link, and brackets around one.
const TRAILING = /[.,;:!?)\]}'"»。．｡、，…‥]$/u;
const IDEOGRAPHIC_DOTS = /[。｡．]/g;
const IPV4 = /^(?:0x[0-9a-f]+|\d+)(?:\.(?:0x[0-9a-f]+|\d+)){3}$/i;
// Two or three numbers with dots: an IPv4 address to `URL` (127.1 is 127.0.0.1), but also 3.14 and 1.2.3.
const SHORT_IPV4 = /^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+)){1,2}$/i;
const HEX_PART = /(?:^|\.)0x/i;
const LABEL = /^[\p{L}\p{N}\p{M}_-]+$/u;
const TOP_LABEL = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;
/**
 * What can stand in a host, userinfo or port as written: letters, digits, marks, `._-@:`, and invisible
 * characters, which the browser drops. Any other character is read as its address form (`addressText`).
 */
const HOST_RUN = /[\p{L}\p{N}\p{M}\p{Cf}\p{Default_Ignorable_Code_Point}._@:-]*/uy;
const HOST_FORM = /^[\p{L}\p{N}\p{M}._@:-]*$/u;
// What is left over at the end of a host: dots, hyphens, underscores (ellipses are dots), or nothing.
const HOST_END_FORM = /^[._@:-]*$/;
const PATH_START = /^[/?#\\]/;

/** The links in `text`, in order. */
export function findLinks(text: string): FoundLink[] {
  if (!DOT_OR_COLON.test(text)) {
    return [];
  }
  const links: FoundLink[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    if (!DOT_OR_COLON.test(word)) {
      continue;
    }
    const link = linkIn(word);
    if (link) {
      const start = match.index + link.offset;
      links.push({ start, end: start + link.text.length, text: link.text, url: link.url, host: link.host });
    }
  }
  return links;
}

/**
 * The links the chat shows in a message as Kick sends it: `findLinks` with its emote tokens blanked out (the
 * chat shows them as pictures, never as links).
 */
export function findChatLinks(content: string): FoundLink[] {
  return findLinks(blankEmotes(content));
}

/** The address `text` stands for, read as a browser would: what `findLinks` parses. */
export function addressText(text: string): string {
  return stripInvisible(text.normalize('NFKC')).replace(IDEOGRAPHIC_DOTS, '.');
}

function linkIn(word: string): { offset: number; text: string; url: string; host: string } | null {
  const scheme = word.search(SCHEME);
  const offset = scheme >= 0 ? scheme : word.search(FIRST_LETTER_OR_DIGIT);
  if (offset < 0) {
    return null;
  }
  const text = scheme >= 0 ? withoutTrailing(word.slice(offset)) : hostWord(word.slice(offset));
  if (text === '') {
    return null;
  }
  const address = addressText(text);
  const withScheme = HAS_SCHEME.test(address);
  const kind = withScheme ? 'host' : hostKind(address);
  if (kind === null) {
    return null;
  }
  const href = withScheme ? address : `https://${address}`;
  if (!URL.canParse(href)) {
    return null;
  }
  const url = new URL(href);
  // Of the short numeric forms only a loopback address is taken for one: 3.14 and 1.2.3 are chat.
  if (url.hostname === '' || (kind === 'short-ip' && !url.hostname.startsWith('127.'))) {
    return null;
  }
  return { offset, text, url: url.href, host: url.hostname };
}

function withoutTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING.test(text.slice(0, end))) {
    end--;
  }
  return text.slice(0, end);
}

/**
 * The link a word without a scheme starts with, as a browser would take it from the address bar: the host
 * (with any userinfo and port) ends at the first character that cannot stand in one, so `evil.com♥`,
 * `evil.com’s` and `evil.com…` are links to evil.com; after a `/`, `?`, `#` or `\\` the rest of the word
 * is its path.
 */
function hostWord(word: string): string {
  let end = 0;
  for (;;) {
    HOST_RUN.lastIndex = end;
    HOST_RUN.test(word);
    end = HOST_RUN.lastIndex;
    if (end >= word.length) {
      return hostEnd(word);
    }
    const char = String.fromCodePoint(word.codePointAt(end)!);
    const form = char.length === 1 && char < '\x80' ? char : addressText(char);
    if (PATH_START.test(form)) {
      return withoutTrailing(word);
    }
    if (!HOST_FORM.test(form)) {
      return hostEnd(word.slice(0, end));
    }
    end += char.length;
  }
}

/** `host` without what trails it and cannot end a host: dots, hyphens, invisible characters and the like. */
function hostEnd(host: string): string {
  let end = host.length;
  while (end > 0) {
    const low = (host.charCodeAt(end - 1) & 0xfc00) === 0xdc00 && end > 1;
    const last = low ? host.slice(end - 2, end) : host[end - 1]!;
    const form = last < '\x80' ? last : addressText(last);
    if (!HOST_END_FORM.test(form) && !TRAILING.test(last)) {
      break;
    }
    end -= last.length;
  }
  return host.slice(0, end);
}

/**
 * What a word without a scheme names: a domain or dotted IPv4 address (`host`), two or three numbers with
 * dots (`short-ip`: a link only to a loopback address, unless written with hex), or nothing.
 */
function hostKind(address: string): 'host' | 'short-ip' | null {
  const authority = address.split(/[/?#\\]/, 1)[0]!;
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = hostAndPort.replace(/:\d{1,5}$/, '').replace(/\.$/, '');
  if (IPV4.test(host)) {
    return 'host';
  }
  if (SHORT_IPV4.test(host)) {
    return HEX_PART.test(host) ? 'host' : 'short-ip';
  }
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && TOP_LABEL.test(labels.at(-1)!)
    ? 'host'
    : null;
}

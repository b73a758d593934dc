/**
 * The links in a chat message, found once for everyone who needs them (docs/automod.md, "Links"): the panel
 * turns them into links and auto-moderation judges them, so what a streamer sees as a link is exactly what
 * the link rule judged. A link is a word that starts with `http://` or `https://`, or looks like a host: a
 * domain whose last part is letters (any script, or `xn--` punycode), or four numbers with dots (an IP).
 * The word is read as a browser reads an address bar: fullwidth and ideographic full stops (．。｡) count as
 * dots, invisible characters are ignored, and the host is the one `URL` parses out, so
 * `https://evil.io\.kick.com` is a link to evil.io and `http://2130706433` one to 127.0.0.1.
 */
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
const SCHEME = /https?:[/\\]{2}/i;
const HAS_SCHEME = /^https?:[/\\]{2}/i;
const FIRST_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// Punctuation that ends a sentence rather than a link, and brackets around one.
const TRAILING = /[.,;:!?)\]}'"»。．｡、，]$/u;
const IDEOGRAPHIC_DOTS = /[。｡．]/g;
const IPV4 = /^(?:0x[0-9a-f]+|\d+)(?:\.(?:0x[0-9a-f]+|\d+)){3}$/i;
const LABEL = /^[\p{L}\p{N}_-]+$/u;
const TOP_LABEL = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;

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
  let text = word.slice(offset);
  while (text.length > 0 && TRAILING.test(text)) {
    text = text.slice(0, -1);
  }
  const address = addressText(text);
  const withScheme = HAS_SCHEME.test(address);
  if (!withScheme && !looksLikeHost(address)) {
    return null;
  }
  const href = withScheme ? address : `https://${address}`;
  if (!URL.canParse(href)) {
    return null;
  }
  const url = new URL(href);
  if (url.hostname === '') {
    return null;
  }
  return { offset, text, url: url.href, host: url.hostname };
}

/** A word without a scheme is a link when its host part is a domain or a dotted IPv4 address. */
function looksLikeHost(address: string): boolean {
  const authority = address.split(/[/?#\\]/, 1)[0]!;
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = hostAndPort.replace(/:\d{1,5}$/, '').replace(/\.$/, '');
  if (IPV4.test(host)) {
    return true;
  }
  const labels = host.split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label)) && TOP_LABEL.test(labels.at(-1)!);
}

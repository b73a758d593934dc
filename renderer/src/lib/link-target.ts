/**
 * Where a chat link really goes, for the confirm (../../../docs/chat-tools.md#links-in-chat): the host the
 * browser would open, read with `new URL` as the browser reads it, not the text the viewer made it look like.
 * `https://kick.com@evil.example/` opens evil.example: everything before the `@` is a user name, which the
 * browser sends to evil.example and otherwise ignores. A host in another script is shown as the browser
 * resolves it (`xn--…`), so a look-alike of a known name does not read as that name.
 */

/** What the confirm shows about a link. */
export interface LinkTarget {
  /** The host the browser opens (with a port when one is given), punycode for non-ASCII names. */
  host: string;
  /** The user name and password part before an `@`, as typed; null when there is none. */
  userinfo: string | null;
  /** The whole URL as the browser would request it. */
  href: string;
  /** Not http(s): the panel does not open it. */
  unsupported: boolean;
}

/** Reads `url` as the browser would; null when it is not a URL at all. */
export function linkTarget(url: string): LinkTarget | null {
  if (!URL.canParse(url)) {
    return null;
  }
  const parsed = new URL(url);
  const userinfo = parsed.password ? `${parsed.username}:${parsed.password}` : parsed.username;
  return {
    host: parsed.host,
    userinfo: userinfo === '' ? null : safeDecode(userinfo),
    href: parsed.href,
    unsupported: parsed.protocol !== 'http:' && parsed.protocol !== 'https:',
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

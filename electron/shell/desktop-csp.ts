/**
 * The desktop window's Content-Security-Policy with emote images allowed from the emote host the settings
 * name ([emote images in the desktop window](../../docs/desktop-runtime.md#emote-images-in-the-desktop-window)).
 * The page's own `<meta>` policy (renderer/index.html) allows Kick's host only, and a second policy could
 * only narrow it, so main serves the page with that one directive rewritten and the rest as written.
 */

/** One DNS label: letters, digits and inner hyphens (an international name arrives as `xn--…`). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Loopback sources the page always allows: the embedded sandbox's emotes, on whatever port it took. */
const LOOPBACK_SOURCES = ['http://127.0.0.1:*', 'http://localhost:*'];

/**
 * The one CSP source for `emoteHost`, or null when it is not a plain https origin. The settings accept any
 * origin the URL parser does, and the parser lets `*` (a CSP wildcard) into a host name, so only a host
 * made of DNS labels or an IPv4 address, with no user, path, query or fragment, can become a source.
 */
export function emoteImageSource(emoteHost: string): string | null {
  if (!URL.canParse(emoteHost)) {
    return null;
  }
  const url = new URL(emoteHost);
  const plain =
    url.protocol === 'https:' &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '';
  const labels = url.hostname.split('.');
  const host = url.hostname.length <= 253 && labels.every((label) => LABEL.test(label));
  return plain && host ? url.origin : null;
}

/** The `img-src` directive for `emoteHost`: ourselves, `data:`, the loopback, and at most one https origin. */
export function desktopImgSrc(emoteHost: string): string {
  const source = emoteImageSource(emoteHost);
  return ['img-src', "'self'", 'data:', ...(source ? [source] : []), ...LOOPBACK_SOURCES].join(' ');
}

const META_CSP = /<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/i;

/**
 * The page `html` with its `<meta>` policy's `img-src` built from `emoteHost`. A page without that policy
 * or directive is returned as it is: the policy it has can only be stricter.
 */
export function withEmoteHostPolicy(html: string, emoteHost: string): string {
  return html.replace(META_CSP, (tag) =>
    tag.replace(/content="([^"]*)"/, (_attr, policy: string) => {
      const directives = policy.split(';').map((part) => part.trim());
      const rewritten = directives.map((part) => (/^img-src(\s|$)/.test(part) ? desktopImgSrc(emoteHost) : part));
      return `content="${rewritten.join('; ')}"`;
    }),
  );
}

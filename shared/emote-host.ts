/**
 * Which origins may serve emote images ([emote images](../docs/desktop-runtime.md#emote-images-in-the-desktop-window)).
 * The URL parser lets `*` (a CSP wildcard), `%` and other odd characters into a host name, and an origin from the
 * settings goes into the panel's and the window's Content-Security-Policy, so only a host made of DNS labels or
 * an IPv4 address, with no user, path, query or fragment, counts. Plain http only on this computer: the embedded
 * sandbox serves its emotes there.
 */

/** One DNS label: letters, digits and inner hyphens (an international name arrives as `xn--…`). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True for the loopback host names the sandbox and the panel use. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.has(hostname);
}

/** `value`'s origin when it is a plain https origin (or http on this computer), else null. */
export function plainImageOrigin(value: string): string | null {
  if (!URL.canParse(value)) {
    return null;
  }
  const url = new URL(value);
  const loopback = isLoopbackHost(url.hostname);
  const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
  const bare =
    url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  const host = loopback || (url.hostname.length <= 253 && url.hostname.split('.').every((label) => LABEL.test(label)));
  return scheme && bare && host ? url.origin : null;
}

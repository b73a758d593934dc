/** Building the redirect back to the client without disturbing the query its registered URI already has. */

/**
 * Adds parameters to a redirect URI, keeping its existing query byte for byte (re-serialising it through
 * `URL.searchParams` would turn `%20` into `+` and could break a client that compares its own URI) and
 * keeping any fragment at the end.
 */
export function appendQueryParams(uri: string, params: Record<string, string>): string {
  const hashAt = uri.indexOf('#');
  const base = hashAt === -1 ? uri : uri.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : uri.slice(hashAt);
  const extra = new URLSearchParams(params).toString();
  if (extra.length === 0) {
    return uri;
  }
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${extra}${fragment}`;
}

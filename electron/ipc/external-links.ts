/**
 * Which links the panel may open in the system browser: https on Kick's and GitHub's hosts (the setup
 * guide's links), and the embedded sandbox's own pages. Anything else is refused, so a message from a
 * compromised page cannot make main open `file:`, a custom protocol handler or an arbitrary site.
 */

/** Hosts reachable over https from the panel's links. */
export const EXTERNAL_HOSTS = ['kick.com', 'docs.kick.com', 'github.com'] as const;

/** What may be opened: exact https hosts and exact origins. */
export interface ExternalLinkPolicy {
  /** Exact host names allowed over https. */
  hosts: readonly string[];
  /** Exact origins (scheme, host and port) allowed as they are, e.g. the sandbox's `http://127.0.0.1:41234`. */
  origins: readonly string[];
}

/** Whether `url` may be opened; credentials in the URL are never allowed. */
export function isAllowedExternalUrl(url: string, policy: ExternalLinkPolicy): boolean {
  if (!URL.canParse(url)) {
    return false;
  }
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') {
    return false;
  }
  if (policy.origins.includes(parsed.origin)) {
    return true;
  }
  return parsed.protocol === 'https:' && parsed.port === '' && policy.hosts.includes(parsed.hostname);
}

/**
 * The one policy for every way a link leaves the app (the panel's "Open link", and the desktop window's
 * own navigation and window.open): Kick's and GitHub's https hosts, plus in sandbox mode the embedded
 * sandbox's own pages (its API, sign-in and admin origins).
 */
export function linkPolicyFor(sandbox?: { api: string; auth: string; admin: string }): ExternalLinkPolicy {
  return {
    hosts: EXTERNAL_HOSTS,
    origins: sandbox ? [sandbox.api, sandbox.auth, sandbox.admin].map((url) => new URL(url).origin) : [],
  };
}

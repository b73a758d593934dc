/**
 * The checks every panel request passes before anything is served: the Host header (a DNS-rebinding
 * guard), the Origin of WebSocket upgrades (cross-site WebSocket hijacking), and the access token,
 * compared in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * True when `presented` equals `expected`. Both are hashed first so the comparison takes the same time
 * whatever the lengths (timingSafeEqual itself throws on a length mismatch, which would leak the length).
 */
export function tokensEqual(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}

/**
 * The Host values a browser sends for this server. Anything else means the page reached us under another
 * name (a rebinding attack points attacker.example at 127.0.0.1), so it is refused.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (host === undefined) {
    return false;
  }
  const value = host.toLowerCase();
  return value === `127.0.0.1:${port}` || value === `localhost:${port}`;
}

/** The origins of pages this server itself served. */
export function panelOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/**
 * True when a WebSocket upgrade comes from one of `allowed`. Browsers (and OBS's CEF docks, which load the
 * dock URL as an ordinary top-level page) always send Origin on WebSocket upgrades, so a missing Origin is
 * refused too: a non-browser client can set one.
 */
export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  return origin !== undefined && allowed.includes(origin.toLowerCase());
}

/**
 * The value of the static-files cookie: an HMAC of a fixed label under the token, so it looks random, is
 * never the token, and reveals nothing about it. Cookies ignore ports, so every other local web server the
 * browser visits receives this value; all it unlocks is the built panel's files, never the WebSocket. It
 * is derived rather than drawn per start so a dock reloaded after Greenroom restarted still loads (the
 * page then takes the real token from its sessionStorage, renderer/src/lib/transport.ts).
 */
export function panelCookieValue(token: string): string {
  return createHmac('sha256', token).update('greenroom panel static files', 'utf8').digest('base64url');
}

/** The cookie that lets a page's own sub-resources (scripts, styles) load after the tokened page load. */
export function panelCookieName(port: number): string {
  // Cookies are not isolated by port, so the name carries it: two Greenroom servers never clash.
  return `greenroom_panel_${port}`;
}

/** Reads one cookie's value from a Cookie header; null when absent. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) {
    return null;
  }
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      return part.slice(eq + 1).trim();
    }
  }
  return null;
}

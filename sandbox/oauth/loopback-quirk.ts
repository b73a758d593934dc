/**
 * Kick's authorize page quirk ([reference §2.1](../../docs/kick-wire-reference.md#21-authorize), [DOC]): the Next.js frontend at id.kick.com rewrites the
 * FIRST `127.0.0.1` in the authorize URL to `localhost` before it reads the parameters. A client whose
 * `redirect_uri` is the first place `127.0.0.1` appears therefore has its redirect turned into a localhost
 * one, which then fails the exact match against the registered URI. Kick's documented workaround is a
 * throwaway parameter holding `127.0.0.1` placed before `redirect_uri`, which absorbs the rewrite.
 */

const LOOPBACK_IP = '127.0.0.1';
const REWRITTEN_HOST = 'localhost';

/**
 * Applies Kick's rewrite to a raw query string: only the first occurrence changes, matched as plain text
 * (percent-encoded `redirect_uri` values keep their dots literal, so the rewrite reaches inside them).
 */
export function rewriteFirstLoopbackIp(rawQuery: string): string {
  const at = rawQuery.indexOf(LOOPBACK_IP);
  if (at === -1) {
    return rawQuery;
  }
  return rawQuery.slice(0, at) + REWRITTEN_HOST + rawQuery.slice(at + LOOPBACK_IP.length);
}

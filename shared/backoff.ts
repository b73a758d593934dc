/**
 * One backoff for every retry loop in Greenroom: Kick API calls (`electron/kick/kick-http.ts`), the tunnel
 * (`electron/webhooks/tunnel/localtunnel-tunnel.ts`) and the panel's socket (`renderer/src/lib/ws-transport.ts`).
 * The delay doubles from `initialMs` up to `maxMs`, and a random share of at most `spread` is taken off, so
 * many clients that failed together (every dock when Greenroom restarts, every request in a Kick outage)
 * do not come back in step. Platform-free: the caller passes its random source.
 */

export interface Backoff {
  /** The first delay, before jitter. */
  initialMs: number;
  /** The longest delay, before jitter. */
  maxMs: number;
  /** The largest share of a delay that jitter may take off, 0–1: 0.5 keeps at least half ("equal jitter"). */
  spread: number;
}

/** The delay before retry number `attempt` (1 for the first retry); `random` returns [0, 1). */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number): number {
  // The exponent is capped so a long outage never overflows to Infinity before the cap applies.
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(Math.max(0, attempt - 1), 30));
  return Math.round(ceiling * (1 - backoff.spread * random()));
}

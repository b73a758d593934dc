/**
 * The opaque cursor of the redemptions listing ([reference §3.7](../../docs/kick-wire-reference.md#37-channel-rewards): "base64 cursor"). It holds the sort key of
 * the last redemption on the page, not an offset, so accepting or rejecting redemptions between two page
 * requests neither skips nor repeats any.
 */
import type { SandboxRedemption } from '../state';
import { fail } from './respond';

/** Where the next page starts: after the redemption with this time and id. */
export interface RedemptionCursor {
  redeemedAtMs: number;
  id: string;
}

/** Oldest first; ULIDs break ties between redemptions made in the same millisecond. */
export function compareRedemptions(a: RedemptionCursor, b: RedemptionCursor): number {
  if (a.redeemedAtMs !== b.redeemedAtMs) {
    return a.redeemedAtMs - b.redeemedAtMs;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The cursor that continues after `last`; base64url so it survives query strings unescaped. */
export function encodeRedemptionCursor(last: SandboxRedemption): string {
  return Buffer.from(JSON.stringify({ t: last.redeemedAtMs, id: last.id }), 'utf8').toString('base64url');
}

/** Decodes a cursor this sandbox issued; anything else is a 400 naming `cursor`. */
export function decodeRedemptionCursor(raw: string): RedemptionCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    fail(400, 'cursor: not a cursor from a previous page');
  }
  if (typeof value === 'object' && value !== null) {
    const { t, id } = value as { t?: unknown; id?: unknown };
    if (typeof t === 'number' && Number.isFinite(t) && typeof id === 'string') {
      return { redeemedAtMs: t, id };
    }
  }
  fail(400, 'cursor: not a cursor from a previous page');
}

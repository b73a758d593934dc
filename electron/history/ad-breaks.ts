/**
 * Ad breaks in the history ([the recap](../../docs/history.md#the-recap)): Kick sends no event for an ad break,
 * so Greenroom journals each one Kick accepted from it as a record of its own type (`app/ad-break-journal.ts`).
 * The projector files it as an event row: its time is Greenroom's, when Kick accepted it, and its amount the
 * break's length in seconds. What is read back is bounded again: the journal is a file a hand can change.
 */
import { z } from 'zod';
import { isKickEventType } from '../../shared/kick/scopes';
import { LIMITS } from '../../shared/limits';
import type { JournalRecord } from '../webhooks/events/types';

/** The journal's type for an ad break: not one of Kick's event types, so nothing reads it as one. */
export const AD_BREAK_RECORD_TYPE = 'greenroom.ad-break';

const storedAdBreak = z.object({
  broadcaster: z.object({ user_id: z.number() }),
  ad_break: z.object({
    id: z.string().min(1).max(200),
    seconds: z.number().int().min(LIMITS.adBreakSecondsMin).max(LIMITS.adBreakSecondsMax),
    at_ms: z.number().finite(),
  }),
});

export interface AdBreak {
  /** Kick's id for the break, which Greenroom chose and sent (its idempotency key). */
  id: string;
  seconds: number;
  /** When Kick accepted it, on Greenroom's clock. */
  atMs: number;
}

/** The ad break a journal record holds; null when the record is no ad break or does not read. */
export function adBreakOfRecord(record: Pick<JournalRecord, 'type' | 'body'>): AdBreak | null {
  if (record.type !== AD_BREAK_RECORD_TYPE) {
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    return null;
  }
  const parsed = storedAdBreak.safeParse(body);
  if (!parsed.success) {
    return null;
  }
  const { id, seconds, at_ms: atMs } = parsed.data.ad_break;
  return { id, seconds, atMs };
}

/** The row's key, amount and detail for an ad break; one that does not read is kept, counted as no break. */
export function adBreakRow(record: JournalRecord): { key: string; amount: number | null; text: string } {
  const adBreak = adBreakOfRecord(record);
  if (adBreak === null) {
    return { key: `delivery:${record.messageId}`, amount: null, text: JSON.stringify({ unreadable: 'ad break' }) };
  }
  return { key: `ad-break:${adBreak.id}`, amount: adBreak.seconds, text: JSON.stringify({ id: adBreak.id }) };
}

/** The journal's records the history keeps: Kick's event types, and Greenroom's own record of an ad break. */
export function keptInHistory(type: string): boolean {
  return isKickEventType(type) || type === AD_BREAK_RECORD_TYPE;
}

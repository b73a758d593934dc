/**
 * The late judgement made live, journaled beside the event it judged ([late events](../../docs/design-notes.md#late-events)).
 * An event whose only time is Kick's send time (a follow) is judged late by how late Kick delivered at that
 * moment, a figure the journal cannot give back. So a late verdict is written down as a small record of its
 * own, and a restart reads it back: the event keeps its "late" mark, and the episode's digest comes back as
 * it was instead of being cut in two where such an event would now look on time.
 */
import { z } from 'zod';
import { hashBody } from '../webhooks/dedup/dedup';
import type { JournalRecord, KickEvent } from '../webhooks/events/types';

/** The journal's type for a late verdict: not one of Kick's event types, so nothing else reads it as one. */
export const LATE_MARK_TYPE = 'greenroom.late-mark';
/** The journal's subscription id for what Greenroom itself wrote down. */
export const GREENROOM_SOURCE = 'greenroom';

const storedMark = z.object({ late: z.object({ message_id: z.string().min(1).max(500) }) });

/** The record saying the delivery `messageId` was late, and the key it claims in the dedup memory. */
export function lateMarkRecord(
  messageId: string,
  broadcasterUserId: number,
  nowMs: number,
): { record: JournalRecord; key: string } {
  const body = JSON.stringify({ broadcaster: { user_id: broadcasterUserId }, late: { message_id: messageId } });
  return {
    record: {
      messageId: `${GREENROOM_SOURCE}:late:${messageId}`,
      subscriptionId: GREENROOM_SOURCE,
      type: LATE_MARK_TYPE,
      version: '1',
      timestamp: new Date(nowMs).toISOString(),
      receivedAtMs: nowMs,
      bodyHash: hashBody(body),
      body,
    },
    key: `${LATE_MARK_TYPE}\n${messageId}`,
  };
}

/** The deliveries the journal's late marks name, and whether each event is such a mark (so not shown). */
export function lateMarksIn(events: readonly KickEvent[]): { late: Set<string>; isMark(event: KickEvent): boolean } {
  const late = new Set<string>();
  for (const event of events) {
    if (event.type === LATE_MARK_TYPE) {
      const parsed = storedMark.safeParse(event.payload);
      if (parsed.success) {
        late.add(parsed.data.late.message_id);
      }
    }
  }
  return { late, isMark: (event) => event.type === LATE_MARK_TYPE };
}

/**
 * An ad break as the journal keeps it ([the recap](../../docs/history.md#the-recap)): Kick sends no event for an
 * ad break, so one Kick accepted from Greenroom is written beside the webhooks, as a record of Greenroom's own
 * type, once per break id. The history files it for the recap; at start it is read back for nothing else (the
 * OBS action it started is over), so a restart never acts on it again.
 */
import { AD_BREAK_RECORD_TYPE, type AdBreak } from '../history/ad-breaks';
import { hashBody } from '../webhooks/dedup/dedup';
import type { JournalRecord, KickEvent } from '../webhooks/events/types';
import { GREENROOM_SOURCE } from './late-marks';

/** The ad break's journal record and the key it claims in the dedup memory. */
export function adBreakRecord(adBreak: AdBreak, broadcasterUserId: number): { record: JournalRecord; key: string } {
  const body = JSON.stringify({
    broadcaster: { user_id: broadcasterUserId },
    ad_break: { id: adBreak.id, seconds: adBreak.seconds, at_ms: adBreak.atMs },
  });
  return {
    record: {
      messageId: `${GREENROOM_SOURCE}:ad-break:${adBreak.id}`,
      subscriptionId: GREENROOM_SOURCE,
      type: AD_BREAK_RECORD_TYPE,
      version: '1',
      timestamp: new Date(adBreak.atMs).toISOString(),
      receivedAtMs: adBreak.atMs,
      bodyHash: hashBody(body),
      body,
    },
    key: `${AD_BREAK_RECORD_TYPE}\n${adBreak.id}`,
  };
}

/** True for an ad break read back from the journal: restored into nothing, never shown as an unknown event. */
export function isAdBreakEvent(event: Pick<KickEvent, 'type'>): boolean {
  return event.type === AD_BREAK_RECORD_TYPE;
}

/**
 * A chat line from Kick's live socket as the webhook service's tests hand it over: the journal record and event
 * key the live merge makes of it (electron/app/live-merge.ts), for `recordLive`.
 */
import { toRfc3339 } from '../../../electron/core/clock';
import { hashBody } from '../../../electron/webhooks/dedup/dedup';
import { eventKeyOf } from '../../../electron/webhooks/events/event-key';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { samplePayloads } from '../../helpers/webhook-signing';

/** Chat lines sent at `atMs`, as both paths bring them: Kick's time in whole seconds, as the socket gives it. */
export function chatLinesAt(atMs: number) {
  const base = samplePayloads(atMs)['chat.message.sent'];
  return (messageId: string, content: string) => ({
    ...base,
    message_id: messageId,
    content,
    created_at: toRfc3339(atMs),
  });
}

export type ChatLine = ReturnType<ReturnType<typeof chatLinesAt>>;

/** The record and key the live merge makes of a socket line received at `atMs`. */
export function socketRecord(payload: ChatLine, atMs: number): { record: JournalRecord; eventKey: string } {
  const body = JSON.stringify(payload);
  const record: JournalRecord = {
    messageId: `live-socket:${payload.message_id}`,
    subscriptionId: 'live-socket',
    type: 'chat.message.sent',
    version: '1',
    timestamp: new Date(atMs).toISOString(),
    receivedAtMs: atMs,
    bodyHash: hashBody(Buffer.from(body, 'utf8')),
    body,
  };
  return { record, eventKey: eventKeyOf(record.type, payload)! };
}

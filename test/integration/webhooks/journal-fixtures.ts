/** A chat delivery's journal record for the journal's tests: number `i`, with `payload` as its body. */
import { createHash } from 'node:crypto';
import type { JournalRecord } from '../../../electron/webhooks/events/types';

export function journalRecord(i: number, payload: object): JournalRecord {
  const body = JSON.stringify(payload);
  return {
    messageId: `01JQ8ZV4M3K5N7P9R1S3${String(i).padStart(6, '0')}`,
    subscriptionId: '01JQ8ZV4M3K5N7P9R1S3T5V7XA',
    type: 'chat.message.sent',
    version: '1',
    timestamp: '2025-04-01T07:56:19Z',
    receivedAtMs: 1_743_494_179_000 + i,
    bodyHash: createHash('sha256').update(body).digest('hex'),
    body,
  };
}

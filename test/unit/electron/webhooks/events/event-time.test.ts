import { describe, expect, it } from 'vitest';
import { eventTimeOf } from '../../../../../electron/webhooks/events/event-time';
import { parseKickEvent } from '../../../../../electron/webhooks/events/parse-event';
import { samplePayloads } from '../../../../helpers/webhook-signing';

const payloads = samplePayloads();

function event(type: string, payload: unknown) {
  return parseKickEvent({
    messageId: '01JQ8ZV4M3K5N7P9R1S3T5V7XA',
    subscriptionId: 's',
    type,
    version: '1',
    timestamp: '2025-04-01T08:10:00Z',
    receivedAtMs: 0,
    bodyHash: '',
    body: JSON.stringify(payload),
  });
}

describe('eventTimeOf', () => {
  it("takes chat's created_at (the event's time), not the send-time header", () => {
    const chat = { ...payloads['chat.message.sent'], created_at: '2025-04-01T07:56:19.250Z' };
    expect(eventTimeOf(event('chat.message.sent', chat))).toEqual({ at: '2025-04-01T07:56:19.250Z', source: 'event' });
  });

  it('falls back to the header without a readable created_at, or for payloads whose time is not documented', () => {
    const { created_at: _, ...withoutTime } = payloads['chat.message.sent'];
    expect(eventTimeOf(event('chat.message.sent', withoutTime))).toEqual({
      at: '2025-04-01T08:10:00Z',
      source: 'sent',
    });
    const garbled = { ...payloads['chat.message.sent'], created_at: 'yesterday' };
    expect(eventTimeOf(event('chat.message.sent', garbled)).source).toBe('sent');
    // A subscription's created_at may be when it began, not this event: not trusted for lag.
    expect(eventTimeOf(event('channel.subscription.renewal', payloads['channel.subscription.renewal'])).source).toBe(
      'sent',
    );
    expect(eventTimeOf(event('some.future.event', { created_at: '2025-04-01T07:00:00Z' })).source).toBe('sent');
  });
});

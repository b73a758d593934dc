import { describe, expect, it } from 'vitest';
import { alertTimeOf } from '../../../../electron/services/alert-time';
import { alertSourceOf } from '../../../../electron/services/alert-source';
import { parseKickEvent } from '../../../../electron/webhooks/events/parse-event';
import { samplePayloads } from '../../../helpers/webhook-signing';

const payloads = samplePayloads();
const SENT = '2025-04-01T08:10:00Z';
const RECEIVED = Date.parse('2025-04-01T08:10:01Z');

function event(type: string, payload: unknown) {
  return parseKickEvent({
    messageId: '01JQ8ZV4M3K5N7P9R1S3T5V7XA',
    subscriptionId: 's',
    type,
    version: '1',
    timestamp: SENT,
    receivedAtMs: RECEIVED,
    bodyHash: '',
    body: JSON.stringify(payload),
  });
}

describe('when an alert’s event happened', () => {
  it('is the payload’s own time where Kick gives one, so a delivery Kick held back shows its age', () => {
    const at = '2025-04-01T07:58:00.000Z';
    const cases: [string, object][] = [
      ['kicks.gifted', { ...payloads['kicks.gifted'], created_at: at }],
      ['channel.subscription.gifts', { ...payloads['channel.subscription.gifts'], created_at: at }],
      ['channel.subscription.new', { ...payloads['channel.subscription.new'], created_at: at }],
      ['channel.reward.redemption.updated', { ...payloads['channel.reward.redemption.updated'], redeemed_at: at }],
      ['livestream.status.updated', { ...payloads['livestream.status.updated'], is_live: true, started_at: at }],
    ];
    for (const [type, payload] of cases) {
      expect(alertTimeOf(event(type, payload)), type).toBe(Date.parse(at));
      expect(alertSourceOf(event(type, payload))?.eventAtMs, type).toBe(Date.parse(at));
    }
  });

  it('is the send time for a follow, for a renewal (whose created_at may be when the sub began), or a garbled time', () => {
    const longAgo = '2024-01-01T00:00:00Z';
    expect(alertTimeOf(event('channel.followed', payloads['channel.followed']))).toBe(Date.parse(SENT));
    const renewal = { ...payloads['channel.subscription.renewal'], created_at: longAgo };
    expect(alertTimeOf(event('channel.subscription.renewal', renewal))).toBe(Date.parse(SENT));
    const garbled = { ...payloads['kicks.gifted'], created_at: 'an hour ago' };
    expect(alertTimeOf(event('kicks.gifted', garbled))).toBe(Date.parse(SENT));
  });

  it('is never later than its receipt: a time from the future counts as now, not as never growing old', () => {
    const future = { ...payloads['kicks.gifted'], created_at: '2030-01-01T00:00:00Z' };
    expect(alertTimeOf(event('kicks.gifted', future))).toBe(RECEIVED);
  });
});

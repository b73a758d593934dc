import { describe, expect, it } from 'vitest';
import { deliveryWords, subscriptionWords } from '../../../../renderer/src/lib/health-words';

describe('deliveryWords', () => {
  it('names repeats and refusals only when there were some', () => {
    expect(deliveryWords({ accepted: 40, duplicates: 0, rejected: 0 })).toBe('40 events received');
    expect(deliveryWords({ accepted: 1, duplicates: 1, rejected: 0 })).toBe(
      '1 event received · 1 event arrived twice, shown once',
    );
    // The live socket's first copies are received too: counted by webhooks alone, 16 received read beside 41 repeats.
    expect(deliveryWords({ accepted: 16, duplicates: 41, rejected: 0, fromLiveSocket: 41 })).toBe(
      '57 events received (41 first by live chat) · 41 events arrived twice, shown once',
    );
    expect(deliveryWords({ accepted: 3, duplicates: 0, rejected: 0, fromLiveSocket: 0 })).toBe('3 events received');
    expect(deliveryWords({ accepted: 41, duplicates: 1234, rejected: 0, fromLiveSocket: 1234 })).toBe(
      '1,275 events received (1,234 first by live chat) · 1,234 events arrived twice, shown once',
    );
    expect(deliveryWords({ accepted: 0, duplicates: 0, rejected: 2 })).toBe(
      '0 events received · 2 deliveries refused as not from Kick or damaged',
    );
  });
});

describe('subscriptionWords', () => {
  it('says an event that came after the panel’s clock last ticked arrived less than a minute ago, never "in"', () => {
    const now = 1_800_000_000_000;
    const line = (lastArrivalMs: number) =>
      subscriptionWords({ type: 'chat.message.sent', state: 'active', lastArrivalMs }, { signedIn: true, now });
    expect(line(now + 25_000)).toBe('Arriving (last one less than a minute ago)');
    expect(line(now - 3 * 60_000)).toBe('Arriving (last one 3 min ago)');
  });
});

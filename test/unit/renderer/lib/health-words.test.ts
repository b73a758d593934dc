import { describe, expect, it } from 'vitest';
import { deliveryWords } from '../../../../renderer/src/lib/health-words';

describe('deliveryWords', () => {
  it('names repeats and refusals only when there were some', () => {
    expect(deliveryWords({ accepted: 40, duplicates: 0, rejected: 0 })).toBe('40 events received');
    expect(deliveryWords({ accepted: 1, duplicates: 1, rejected: 0 })).toBe(
      '1 event received · 1 repeat Kick sent twice, shown once',
    );
    expect(deliveryWords({ accepted: 0, duplicates: 0, rejected: 2 })).toBe(
      '0 events received · 2 deliveries refused as not from Kick or damaged',
    );
  });
});

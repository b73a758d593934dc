import { describe, expect, it } from 'vitest';
import { toBadgeViews } from '../../../../renderer/src/lib/badges';

describe('badges', () => {
  it('labels badges', () => {
    expect(toBadgeViews([{ text: 'Subscriber', type: 'subscriber', count: 3 }])[0]).toMatchObject({
      glyph: '3',
      label: 'Subscriber (3)',
    });
  });
});

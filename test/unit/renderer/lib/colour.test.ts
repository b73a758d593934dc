import { describe, expect, it } from 'vitest';
import { readableNameColour } from '../../../../renderer/src/lib/colour';

describe('colour', () => {
  it('lifts dark name colours and rejects junk', () => {
    expect(readableNameColour('#000000')).not.toBe('#000000');
    expect(readableNameColour('#ffcc00')).toBe('#ffcc00');
    expect(readableNameColour('red; background: url(x)')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { charMemo } from '../../../../electron/automod/char-memo';

describe('charMemo', () => {
  it('works each character out once while there is room, and starts afresh when full', () => {
    const asked: number[] = [];
    const isUpper = charMemo((code) => {
      asked.push(code);
      const c = String.fromCharCode(code);
      return c !== c.toLowerCase();
    }, 2);
    expect([isUpper(0xc9), isUpper(0xe9), isUpper(0xc9), isUpper(0xe9)]).toEqual([true, false, true, false]);
    expect(asked).toEqual([0xc9, 0xe9]);
    // A third character: the memo is full, so it starts afresh and keeps only the newest.
    expect(isUpper(0x100)).toBe(true);
    expect(isUpper(0xc9)).toBe(true);
    expect(asked).toEqual([0xc9, 0xe9, 0x100, 0xc9]);
    // Known again: not worked out again (a false answer, 0xe9 above, neither).
    expect(isUpper(0xc9)).toBe(true);
    expect(asked).toHaveLength(4);
  });
});

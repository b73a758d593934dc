import { describe, expect, it } from 'vitest';
import { splitSelectors } from '../../../../renderer/src/overlay/custom-css';

describe('keeping custom CSS to the alert box', () => {
  it('splits a selector list at its own commas only, so each part gets the box in front', () => {
    expect(splitSelectors('.a, .b > .c,.d::after')).toEqual(['.a', '.b > .c', '.d::after']);
    expect(splitSelectors(':is(.a, .b) .c, [title="x, y"], .e:not(.f, .g)')).toEqual([
      ':is(.a, .b) .c',
      '[title="x, y"]',
      '.e:not(.f, .g)',
    ]);
    expect(splitSelectors("[data-x='a\\', b'], html")).toEqual(["[data-x='a\\', b']", 'html']);
    expect(splitSelectors(' , .a ,')).toEqual(['.a']);
  });
});

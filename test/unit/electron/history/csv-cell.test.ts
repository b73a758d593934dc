import { describe, expect, it } from 'vitest';
import { csvCell } from '../../../../electron/history/csv-cell';

describe('a CSV cell of an export', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+SUM(A1)', "'+SUM(A1)"],
    ['-2', "'-2"],
    ['@cmd', "'@cmd"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['\n=1', `"'\n=1"`],
    ['  =cmd|x', "'  =cmd|x"],
    ['\u200b=1', "'\u200b=1"],
    ['\u202e=1', "'\u202e=1"],
    ['\uff1dSUM(A1)', "'\uff1dSUM(A1)"],
    ['\uff0b1', "'\uff0b1"],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['plain', 'plain'],
  ])('neutralises the cell %j', (text, cell) => {
    expect(csvCell(text)).toBe(cell);
  });

  it('writes numbers and empty cells as they are', () => {
    expect([csvCell(-2), csvCell(0), csvCell(null)]).toEqual(['-2', '0', '']);
  });
});

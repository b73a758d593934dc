import { describe, expect, it } from 'vitest';
import { isClearRow, mixClears } from '../../../../renderer/src/lib/room-rows';

const rows = [
  { messageId: 'a', at: 1000 },
  { messageId: 'b', at: 2000 },
];
const ids = (list: readonly { messageId: string }[]) => list.map((r) => r.messageId);

describe('cleared-chat lines among the rows', () => {
  it('places each clear by time, a row at the same millisecond first', () => {
    const mixed = mixClears(
      rows,
      [
        { id: 'x', atMs: 1000 },
        { id: 'y', atMs: 5000 },
      ],
      (r) => r.at,
    );
    expect(ids(mixed)).toEqual(['a', 'cleared:x', 'b', 'cleared:y']);
    expect(mixed.filter(isClearRow).map((r) => r.cleared.id)).toEqual(['x', 'y']);
  });

  it('leaves out a clear older than the oldest row, and keeps the same array when nothing is mixed in', () => {
    expect(mixClears(rows, [{ id: 'old', atMs: 999 }], (r) => r.at)).toBe(rows);
    expect(mixClears(rows, [], (r) => r.at)).toBe(rows);
  });

  it('shows every clear in an empty chat', () => {
    expect(ids(mixClears([], [{ id: 'x', atMs: 1 }], () => 0))).toEqual(['cleared:x']);
  });
});

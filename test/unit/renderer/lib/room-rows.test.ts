import { describe, expect, it } from 'vitest';
import type { ChatClearedView } from '../../../../shared/room-state';
import { isClearRow, mixClears } from '../../../../renderer/src/lib/room-rows';

const rows = [
  { messageId: 'a', at: 1000 },
  { messageId: 'b', at: 1000 },
  { messageId: 'c', at: 2000 },
];
const ids = (list: readonly { messageId: string }[]) => list.map((r) => r.messageId);
const clear = (id: string, atMs: number, afterMessageId: string | null): ChatClearedView => ({
  id,
  atMs,
  afterMessageId,
});

describe('cleared-chat lines among the rows', () => {
  it('goes right after the line main had last, though lines of the same second follow it', () => {
    const mixed = mixClears(rows, [clear('x', 1700, 'a')], (r) => r.at);
    expect(ids(mixed)).toEqual(['a', 'cleared:x', 'b', 'c']);
    expect(mixed.filter(isClearRow).map((r) => r.cleared.id)).toEqual(['x']);
  });

  it('goes first when there was no chat yet, and by time when its line is not in this scrollback', () => {
    expect(ids(mixClears(rows, [clear('x', 1500, null)], (r) => r.at))).toEqual(['cleared:x', 'a', 'b', 'c']);
    expect(ids(mixClears(rows, [clear('y', 1500, 'ignored')], (r) => r.at))).toEqual(['a', 'b', 'cleared:y', 'c']);
    expect(ids(mixClears(rows, [clear('z', 9000, 'gone')], (r) => r.at))).toEqual(['a', 'b', 'c', 'cleared:z']);
  });

  it('leaves out a clear older than the oldest row, and keeps the same array when nothing is mixed in', () => {
    expect(mixClears(rows, [clear('old', 999, 'trimmed')], (r) => r.at)).toBe(rows);
    expect(mixClears(rows, [clear('older', -5000, null)], (r) => r.at)).toBe(rows);
    expect(mixClears(rows, [], (r) => r.at)).toBe(rows);
  });

  it('shows every clear in an empty chat', () => {
    expect(ids(mixClears([], [clear('x', 1, null), clear('y', 2, 'gone')], () => 0))).toEqual([
      'cleared:x',
      'cleared:y',
    ]);
  });
});

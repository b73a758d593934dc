/**
 * "Chat was cleared by a moderator" lines mixed into the chat log at their time
 * ([Chat tools](../../../docs/chat-tools.md#the-rooms-modes-and-pinned-message)). Like inline events, only the
 * clears from the oldest row in the scrollback on are shown, so an old clear does not sit above a quiet chat.
 */
import type { ChatClearedView } from '../../../shared/room-state';

/** The words the line says. */
export const CLEARED_TEXT = 'Chat was cleared by a moderator';

export interface ClearRow {
  messageId: string;
  cleared: ChatClearedView;
}

export const isClearRow = (row: { messageId: string }): row is ClearRow => 'cleared' in row;

/**
 * Rows (oldest first, each with a time from `timeOf`) with the clears placed by time; a row and a clear at the
 * same millisecond keep the row first. The rows array itself when no clear falls in range.
 */
export function mixClears<R extends { messageId: string }>(
  rows: readonly R[],
  clears: readonly ChatClearedView[],
  timeOf: (row: R) => number,
): readonly (R | ClearRow)[] {
  const since = rows.length === 0 ? -Infinity : timeOf(rows[0]!);
  const shown = clears.filter((c) => c.atMs >= since);
  if (shown.length === 0) {
    return rows;
  }
  const out: (R | ClearRow)[] = [];
  let c = 0;
  for (const row of rows) {
    while (c < shown.length && shown[c]!.atMs < timeOf(row)) {
      out.push(toRow(shown[c++]!));
    }
    out.push(row);
  }
  while (c < shown.length) {
    out.push(toRow(shown[c++]!));
  }
  return out;
}

const toRow = (cleared: ChatClearedView): ClearRow => ({ messageId: `cleared:${cleared.id}`, cleared });

/**
 * "Chat was cleared by a moderator" lines mixed into the chat log
 * ([Chat tools](../../../docs/chat-tools.md#the-rooms-modes-and-pinned-message)). Each goes right after the chat
 * line main had last when the clear came: chat times are Kick's whole seconds, too coarse to order a clear among
 * the lines of its second. When that line is not in this scrollback (an ignored chatter's), the clear is placed by
 * time; one older than the oldest row is left out, so an old clear does not sit above a quiet chat.
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
 * Rows (oldest first, each with a time from `timeOf`) with the clears placed; the rows array itself when no clear
 * is shown, so a chat without clears costs no copy per frame.
 */
export function mixClears<R extends { messageId: string }>(
  rows: readonly R[],
  clears: readonly ChatClearedView[],
  timeOf: (row: R) => number,
): readonly (R | ClearRow)[] {
  if (clears.length === 0) {
    return rows;
  }
  const ids = new Set(rows.map((r) => r.messageId));
  const since = rows.length === 0 ? -Infinity : timeOf(rows[0]!);
  const after = new Map<string, ClearRow[]>();
  const first: ClearRow[] = [];
  const byTime: ChatClearedView[] = [];
  for (const cleared of clears) {
    if (cleared.afterMessageId !== null && ids.has(cleared.afterMessageId)) {
      const list = after.get(cleared.afterMessageId) ?? [];
      list.push(toRow(cleared));
      after.set(cleared.afterMessageId, list);
    } else if (cleared.afterMessageId === null && cleared.atMs >= since - 1000) {
      // No chat line before it: every row in view came after it (a row's time is its whole second).
      first.push(toRow(cleared));
    } else if (cleared.atMs >= since) {
      byTime.push(cleared);
    }
  }
  if (after.size === 0 && first.length === 0 && byTime.length === 0) {
    return rows;
  }
  const out: (R | ClearRow)[] = [...first];
  let c = 0;
  for (const row of rows) {
    while (c < byTime.length && byTime[c]!.atMs < timeOf(row)) {
      out.push(toRow(byTime[c++]!));
    }
    out.push(row);
    const anchored = after.get(row.messageId);
    if (anchored) {
      out.push(...anchored);
    }
  }
  while (c < byTime.length) {
    out.push(toRow(byTime[c++]!));
  }
  return out;
}

const toRow = (cleared: ChatClearedView): ClearRow => ({ messageId: `cleared:${cleared.id}`, cleared });

/**
 * Inline event rows in chat (docs/chat-tools.md): follows, subs, gifts, KICKs and redemptions mixed into
 * the chat log at their time, as compact rows, when the streamer wants them. Only events from the time of
 * the oldest message in the scrollback on are mixed in, so a quiet chat is not buried under old events.
 */
import type { ChatMessageView, FeedItem, FeedKind } from '../../../shared/views';

/** The feed kinds shown inline. */
export const INLINE_KINDS: readonly FeedKind[] = [
  'follow',
  'subscription',
  'renewal',
  'gifted-subs',
  'kicks',
  'redemption',
];

export interface EventRow {
  messageId: string;
  event: FeedItem;
}
export type ChatRow = ChatMessageView | EventRow;

export const isEventRow = (row: ChatRow): row is EventRow => 'event' in row;

/** A chatter's message, not an inline event or a moderator's clear (room-rows.ts) mixed in among them. */
export const isChatMessage = (row: { messageId: string }): row is ChatMessageView =>
  !('event' in row) && !('cleared' in row);

/**
 * Messages (oldest first) with the events (any order) placed by time; a message and an event at the same
 * millisecond keep the message first. The messages array itself when no event falls in range, so a chat
 * without events costs no copy per frame.
 */
export function mixEvents(messages: readonly ChatMessageView[], events: readonly FeedItem[]): readonly ChatRow[] {
  const since = messages[0]?.sentAtMs ?? -Infinity;
  const inline = events.filter((e) => e.atMs >= since && INLINE_KINDS.includes(e.kind)).sort((a, b) => a.atMs - b.atMs);
  if (inline.length === 0) {
    return messages;
  }
  const rows: ChatRow[] = [];
  let e = 0;
  for (const message of messages) {
    while (e < inline.length && inline[e]!.atMs < message.sentAtMs) {
      rows.push(toRow(inline[e++]!));
    }
    rows.push(message);
  }
  while (e < inline.length) {
    rows.push(toRow(inline[e++]!));
  }
  return rows;
}

const toRow = (event: FeedItem): EventRow => ({ messageId: `event:${event.id}`, event });

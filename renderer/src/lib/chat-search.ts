/**
 * Search in the chat scrollback (docs/chat-tools.md): every word of the query must appear in the message
 * or the sender's name, any case; `from:name` keeps one chatter's messages. Runs over the panel's
 * scrollback only (at most 10,000 messages), so a plain scan answers within a frame.
 */
import type { ChatMessageView } from '../../../shared/views';

export function searchChat(messages: readonly ChatMessageView[], query: string): ChatMessageView[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) {
    return [...messages];
  }
  const from = words.filter((w) => w.startsWith('from:')).map((w) => w.slice(5).replace(/^@/, ''));
  const terms = words.filter((w) => !w.startsWith('from:'));
  return messages.filter((m) => {
    const name = m.sender.username.toLowerCase();
    if (from.some((f) => f !== name)) {
      return false;
    }
    const text = `${name} ${m.content.toLowerCase()}`;
    return terms.every((t) => text.includes(t));
  });
}

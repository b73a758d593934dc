/**
 * What the app acknowledged, held against what it shows: every delivery it answered 200 must be in chat
 * (chat messages, by the payload's message id) or in the activity feed (everything else, by the webhook
 * message id, or the redemption's id for redemptions), exactly once.
 */
import { expect } from 'vitest';
import type { ChatMessageView, FeedItem } from '../../shared/views';
import type { PassedDelivery } from './webhook-recorder';

const CHAT = 'chat.message.sent';
const REDEMPTION = 'channel.reward.redemption.updated';

/** The id an acknowledged delivery has in the panel's chat or feed. */
export function panelIdOf(delivery: PassedDelivery): string {
  if (delivery.type === CHAT) {
    return String(delivery.payload.message_id);
  }
  if (delivery.type === REDEMPTION) {
    return `redemption-${String(delivery.payload.id)}`;
  }
  return delivery.webhookId;
}

/** How often each value occurs. */
function counts(values: string[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const value of values) {
    seen.set(value, (seen.get(value) ?? 0) + 1);
  }
  return seen;
}

/**
 * Asserts, delivery by delivery, that each acknowledged one is shown exactly once, and that nothing is
 * shown twice. Returns how many chat messages and feed items were checked.
 */
export function expectAllShownOnce(
  acknowledged: PassedDelivery[],
  shown: { chat: ChatMessageView[]; feed: FeedItem[] },
): { chat: number; feed: number } {
  const chatIds = counts(shown.chat.map((m) => m.messageId));
  const feedIds = counts(shown.feed.map((f) => f.id));
  const doubled = [...chatIds, ...feedIds].filter(([, n]) => n > 1).map(([id]) => id);
  expect(doubled, 'shown more than once').toEqual([]);
  const missing: string[] = [];
  let chat = 0;
  let feed = 0;
  for (const delivery of acknowledged) {
    const id = panelIdOf(delivery);
    if (delivery.type === CHAT) {
      chat++;
      const message = shown.chat.find((m) => m.messageId === id);
      if (!message) {
        missing.push(`chat ${id}`);
      } else {
        expect(message.content, `content of chat ${id}`).toBe(delivery.payload.content);
        const sender = delivery.payload.sender as { user_id: number };
        expect(message.sender.userId, `sender of chat ${id}`).toBe(sender.user_id);
      }
    } else {
      feed++;
      if (!feedIds.has(id)) {
        missing.push(`${delivery.type} ${id}`);
      }
    }
  }
  expect(missing, 'acknowledged but not shown').toEqual([]);
  return { chat, feed };
}

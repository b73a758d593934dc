/**
 * What an overlay page shows, built from the frames Greenroom sends (shared/overlays.ts OverlayFrame).
 * Chat keeps at most the configured number of lines; a removal takes effect at once.
 */
import type { ChatMessageView, FeedItem } from '../../../shared/views';
import type { AlertView, GoalView, OverlayFrame, OverlaySettings, OverlayStyle } from '../../../shared/overlays';

export interface ChatLine {
  message: ChatMessageView;
  /** performance.now() when it arrived here, for the fade-out. */
  arrivedAt: number;
}

export class OverlayFeed {
  status = $state<'connecting' | 'open' | 'reconnecting' | 'invalid'>('connecting');
  style = $state<OverlayStyle | null>(null);
  emoteHost = $state('');
  chatSettings = $state<OverlaySettings['chat'] | null>(null);
  alert = $state<AlertView | null>(null);
  chat = $state<ChatLine[]>([]);
  goal = $state<GoalView | null>(null);
  events = $state<FeedItem[]>([]);

  apply(frame: OverlayFrame): void {
    switch (frame.type) {
      case 'config':
        this.style = frame.style;
        this.emoteHost = frame.emoteHost;
        this.chatSettings = frame.chat;
        break;
      case 'alert':
        this.alert = frame.alert;
        break;
      case 'alert-end':
        // Skipped or cleared in the panel; a later alert already on screen stays.
        if (this.alert?.id === frame.id) {
          this.alert = null;
        }
        break;
      case 'chat': {
        const now = performance.now();
        const max = this.chatSettings?.maxLines ?? 12;
        // At most 50 lines: a scan is cheaper than building a set.
        const added = frame.messages
          .filter((m) => !this.chat.some((line) => line.message.messageId === m.messageId))
          .map((message) => ({ message, arrivedAt: now }));
        this.chat = [...this.chat, ...added].slice(-max);
        break;
      }
      case 'chat-remove': {
        this.chat = this.chat.filter((line) => !frame.messageIds.includes(line.message.messageId));
        break;
      }
      case 'goal':
        this.goal = frame.goal;
        break;
      case 'events':
        this.events = frame.items;
        break;
    }
  }
}

/**
 * Where each Kick event goes in main: to the overlays (alerts, goal), chat past auto-moderation into the chat history,
 * everything else into the feed, and a live event announced to the panels (`kick:event`); a journal replay
 * at start-up fills them silently. Live-status and metadata events, the journal's too, go to main's one
 * live status (`live-state.ts`), before the bot hears them; a live one also has main ask Kick for the channel
 * once for every panel.
 */
import type { ChatHistory } from '../services/chat-history';
import type { Chatters } from '../services/chatters';
import { toPanelEvent } from '../services/event-views';
import type { Feed } from '../services/feed';
import type { KickEvent } from '../webhooks/events/types';
import type { OverlayHub } from '../overlays/overlay-hub';
import type { AppAutomod } from './app-automod';
import type { AppChatBot } from './app-chat-bot';
import type { AppEventEmitter } from '../core/app-events';
import type { LiveState } from './live-state';

export interface IngestDeps {
  chat: ChatHistory;
  /** First messages and message counts, the journal's too (electron/services/chatters.ts). */
  chatters: Pick<Chatters, 'note'>;
  feed: Feed;
  events: AppEventEmitter;
  /** The overlays' alert queue and goal count see every event, the journal's too. */
  overlays: Pick<OverlayHub, 'ingest'>;
  /** Auto-moderation judges live chat before it is shown (app-automod.ts). */
  automod: Pick<AppAutomod, 'screen'>;
  /** Commands, timers and event replies hear chat that passed, and every event (app-chat-bot.ts). */
  chatBot: Pick<AppChatBot, 'onChat' | 'onEvent'>;
  /** Main's one live status: what the bot, the header and the views read (live-state.ts). */
  live: Pick<LiveState, 'onEvent'>;
  /** The channel changed; called for live events only. */
  streamChanged: () => void;
  /**
   * How late an event came past the "late" age, in ms (null: on time): it is recorded, marked late, but gets
   * no bot reply or alert ([late events](../../docs/design-notes.md#late-events)), and the alert box lists it
   * as that late. Judged on the journal's events too, so a restart does not play a late alert.
   */
  lateness?: (event: KickEvent) => number | null;
}

/** Puts one event into chat or the feed; announces it when `live` (a journal replay is not news). */
export function createIngest({
  chat,
  chatters,
  feed,
  events,
  overlays,
  automod,
  chatBot,
  live: liveState,
  streamChanged,
  lateness = () => null,
}: IngestDeps): (event: KickEvent, live: boolean) => void {
  return (event, live) => {
    const lateByMs = lateness(event);
    const late = lateByMs !== null;
    overlays.ingest(event, live, lateByMs);
    const view = toPanelEvent(event);
    if (view.kind === 'chat') {
      // A message auto-moderation acts on goes out already removed: no panel or overlay ever shows it.
      const message = automod.screen(view.message, live) ? { ...view.message, deleted: true } : view.message;
      if (!chat.add(message)) {
        return;
      }
      // Marked on the kept object, so a panel that opens later sees the first message marked too.
      if (chatters.note(message, event.receivedAtMs)) {
        message.firstMessage = true;
      }
      if (live) {
        events.emit('kick:event', { kind: 'chat', message });
        if (!message.deleted && !late) {
          chatBot.onChat(message);
        }
      }
      return;
    }
    liveState.onEvent(event, live);
    chatBot.onEvent(event, live && !late);
    const kept = feed.upsert(late ? { ...view.item, late: true } : view.item);
    if (kept && live) {
      events.emit('kick:event', { kind: view.kind, item: { ...kept } });
      if (kept.kind === 'live-status' || kept.kind === 'metadata') {
        streamChanged();
      }
    }
  };
}

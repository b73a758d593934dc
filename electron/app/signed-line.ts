/**
 * Kick's signed copy of a chat line the live socket told otherwise ([design notes](../../docs/design-notes.md#chat-from-the-live-socket-first)).
 * The receiver lets such a webhook through (`signed-copy.ts`) instead of dropping it as a copy: the socket is
 * unsigned and the webhook is the record. Here it takes the socket line's place in chat:
 *
 * - auto-moderation judges it as a new line, since its words were never judged; a line already removed stays removed;
 * - the chat history and the panels put it where the socket's line was (`chat:replaced`);
 * - the bot hears it, but answers a line once: a command the socket's words already had answered gets no second
 *   reply, whatever the signed words say, so one chat line never brings two bot messages.
 */
import type { ChatMessageView } from '../../shared/views';
import type { ChatHistory } from '../services/chat-history';
import { toPanelEvent } from '../services/event-views';
import { LIVE_SOCKET_SOURCE } from '../webhooks/dedup/signed-copy';
import type { KickEvent } from '../webhooks/events/types';
import type { AppAutomod } from './app-automod';
import type { AppChatBot } from './app-chat-bot';

export interface SignedLineDeps {
  chat: Pick<ChatHistory, 'find' | 'replace'>;
  automod: Pick<AppAutomod, 'screen'>;
  chatBot: Pick<AppChatBot, 'onChat'>;
  /** Tells the panels and the overlays (`chat:replaced`). */
  replaced: (message: ChatMessageView) => void;
  log: (line: string) => void;
}

/**
 * Returns a handler for each live webhook event: true when it was a signed line put in place of the socket's
 * (nothing more is to be done with it), false for every other event.
 */
export function createSignedLine(deps: SignedLineDeps): (event: KickEvent, late: boolean) => boolean {
  return (event, late) => {
    if (event.kind !== 'known' || event.type !== 'chat.message.sent' || event.subscriptionId === LIVE_SOCKET_SOURCE) {
      return false;
    }
    const view = toPanelEvent(event);
    // A webhook whose line is kept already was let through as the record (`signed-copy.ts`), or the socket's line
    // gave another second than Kick's and so another key; a copy that agrees is left to be dropped as before.
    const old = view.kind === 'chat' ? deps.chat.find(view.message.messageId) : undefined;
    if (view.kind !== 'chat' || old === undefined || sameLine(old, view.message)) {
      return false;
    }
    const removed = old.deleted || deps.automod.screen(view.message, true);
    const message: ChatMessageView = { ...view.message, deleted: removed };
    if (old.firstMessage && old.sender.userId === message.sender.userId) {
      message.firstMessage = true;
    }
    deps.chat.replace(message);
    deps.replaced(message);
    deps.log("live merge: a chat line from the live socket differed from Kick's signed copy; the signed copy is shown");
    if (!message.deleted && !late) {
      deps.chatBot.onChat(message);
    }
    return true;
  };
}

/** The same words from the same sender: nothing for a reader to see changed. */
function sameLine(a: ChatMessageView, b: ChatMessageView): boolean {
  return a.content === b.content && a.sender.userId === b.sender.userId && a.sender.username === b.sender.username;
}

/**
 * Commands, timers and event replies in the app (docs/chat-bot.md): the bot (electron/chat-bot/chat-bot.ts)
 * hears live chat after auto-moderation and every event, and posts through the one outgoing queue, which
 * sends through the app's Kick client: in sandbox mode that client talks to the sandbox, so nothing
 * automatic can reach Kick from there. Automatic messages wait while automation is paused or the streamer
 * is signed out, and the waiting ones are dropped when that happens. Whether the stream is live is the live
 * state's answer (live-state.ts), the one the header shows.
 */
import type { KickChatSendResult } from '../../shared/kick/resources';
import type { ChatMessageView } from '../../shared/views';
import { ChatBot } from '../chat-bot/chat-bot';
import { ChatQueue } from '../chat-bot/chat-queue';
import type { BotHistory } from '../chat-bot/history-variables';
import { OwnMessages } from '../chat-bot/own-messages';
import type { Clock } from '../core/clock';
import type { KickClient } from '../kick/kick-client';
import { WIRE_ASSUMPTIONS } from '../kick/wire-assumptions';
import type { AccountService } from '../services/account';
import type { KickEvent } from '../webhooks/events/types';
import type { LiveState } from './live-state';
import type { AlertSource } from '../services/alert-source';
import type { SettingsStore } from './settings';

export interface AppChatBot {
  /** The streamer's message from the panel, through the same queue: first in line, answered with Kick's reply. */
  sendManual(message: { content: string; as: 'bot' | 'user'; replyToMessageId?: string }): Promise<KickChatSendResult>;
  onChat(message: ChatMessageView): void;
  onEvent(event: KickEvent, live: boolean): void;
  /** An incoming raid, once per raid (app-raids.ts). */
  onRaid(source: AlertSource): void;
  stop(): void;
}

/** How often timers are checked: a timer posts at most this long after it is due. */
export const TIMER_TICK_MS = 5000;

const timer = (fn: () => void, ms: number): { cancel(): void } => {
  const handle = setTimeout(fn, ms);
  handle.unref();
  return { cancel: () => clearTimeout(handle) };
};

export function createAppChatBot(deps: {
  client: Pick<KickClient, 'sendChatMessage'>;
  account: Pick<AccountService, 'userId' | 'requireUserId' | 'onChange'>;
  settings: SettingsStore;
  /** Main's one live status: timers post only while it says live, confirmed by Kick. */
  live: Pick<LiveState, 'facts' | 'isLive'>;
  clock: Clock;
  log: (line: string) => void;
  /** The stream history, for `{followage}`, `{streams}` and "welcome back" (history-variables.ts). */
  history?: BotHistory;
}): AppChatBot {
  const settings = () => deps.settings.values().chatBot;
  const own = new OwnMessages({ now: () => deps.clock.now(), streamerUserId: () => deps.account.userId() });
  const queue = new ChatQueue({
    send: async (message) => {
      // Noted before the request leaves: Kick's webhook of the message may come before its answer.
      const sending = own.sending(message);
      try {
        const result = await deps.client.sendChatMessage({
          content: message.content,
          type: message.as,
          // Kick needs the channel only for messages sent as the streamer; the bot posts to its own app's.
          broadcasterUserId: message.as === 'user' ? await deps.account.requireUserId() : undefined,
          replyToMessageId: message.replyToMessageId,
        });
        sending.sent(
          typeof result?.message_id === 'string' && result.message_id !== '' ? result.message_id : undefined,
        );
        return result;
      } catch (error) {
        sending.failed();
        throw error;
      }
    },
    now: () => deps.clock.now(),
    setTimer: timer,
    automationAllowed: () => !settings().paused && deps.account.userId() !== null,
    minIntervalMs: WIRE_ASSUMPTIONS.chatSend.minIntervalMs,
    after429: WIRE_ASSUMPTIONS.chatSend.after429,
    log: deps.log,
  });
  const bot = new ChatBot({
    settings,
    stream: () => ({ ...deps.live.facts(), live: deps.live.isLive() }),
    enqueue: (message) => void queue.enqueue(message),
    now: () => deps.clock.now(),
    setTimer: timer,
    isOwn: (message) => own.isOwn(message),
    // One list of the channel's bots, kept in the Overlays tab (../../docs/chat-bot.md#who-the-bot-never-answers).
    botNames: () => deps.settings.values().overlays.chat.botNames,
    log: deps.log,
    history: deps.history,
  });
  const ticking = setInterval(() => bot.tick(), TIMER_TICK_MS);
  ticking.unref();
  const offs = [
    deps.settings.onChange((values) => values.chatBot.paused && queue.clearAutomatic()),
    deps.account.onChange((view) => !view.signedIn && queue.clearAutomatic()),
  ];
  return {
    sendManual: async (message) => {
      // Signed out, the panel hears "sign in first" at once rather than after a turn in the queue.
      if (message.as === 'user') {
        await deps.account.requireUserId();
      }
      return (await queue.sendManual(message)) as KickChatSendResult;
    },
    onChat: (message) => bot.onChat(message),
    onEvent: (event, live) => bot.onEvent(event, live),
    onRaid: (source) => bot.onRaid(source),
    stop() {
      clearInterval(ticking);
      offs.forEach((off) => off());
      bot.stop();
      queue.stop();
    },
  };
}

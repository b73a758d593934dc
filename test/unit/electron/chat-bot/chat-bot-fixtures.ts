import type { ChatBotSettings } from '../../../../shared/chat-bot';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../../shared/chat-bot';
import type { KickBadge } from '../../../../shared/kick/events';
import type { ChatMessageView } from '../../../../shared/views';
import { LiveState } from '../../../../electron/app/live-state';
import { ChatBot } from '../../../../electron/chat-bot/chat-bot';
import type { AlertSource } from '../../../../electron/services/alert-source';
import type { OutgoingMessage } from '../../../../electron/chat-bot/chat-queue';
import type { BotHistory } from '../../../../electron/chat-bot/history-variables';
import { OwnMessages } from '../../../../electron/chat-bot/own-messages';
import type { KickEvent } from '../../../../electron/webhooks/events/types';

/** Timers run by hand: `advance` fires those due. */
export class ManualTimers {
  now = 1_000_000;
  #timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  set = (fn: () => void, ms: number): { cancel(): void } => {
    const timer = { at: this.now + ms, fn, cancelled: false };
    this.#timers.push(timer);
    return { cancel: () => (timer.cancelled = true) };
  };
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) {
        break;
      }
      this.now = due.at;
      due.cancelled = true;
      due.fn();
    }
    this.now = until;
  }
}

export function botSetup(change: (s: ChatBotSettings) => void = () => undefined, history?: BotHistory) {
  const settings = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
  change(settings);
  const sent: OutgoingMessage[] = [];
  const logs: string[] = [];
  const timers = new ManualTimers();
  const own = new OwnMessages({ now: () => timers.now, streamerUserId: () => STREAMER_ID });
  const botNames = ['BotRix', 'KickBot'];
  // Main's live status, fed by the same events: these tests never reach Kick, so an ask fails.
  const live = new LiveState({
    read: () => Promise.reject(new Error('no Kick in these tests')),
    broadcasterUserId: () => STREAMER_ID,
    now: () => timers.now,
    setTimer: timers.set,
    log: (line) => logs.push(line),
  });
  const chatBot = new ChatBot({
    settings: () => settings,
    stream: () => ({ ...live.facts(), live: live.isLive() }),
    enqueue: (message) => sent.push(message),
    now: () => timers.now,
    setTimer: timers.set,
    isOwn: (message) => own.isOwn(message),
    botNames: () => botNames,
    log: (line) => logs.push(line),
    history,
  });
  // The bot as the app's ingest feeds it (electron/app/ingest.ts): the live status hears each event first.
  const bot = {
    onEvent: (e: KickEvent, isLive: boolean) => {
      live.onEvent(e, isLive);
      chatBot.onEvent(e, isLive);
    },
    onChat: (message: ChatMessageView) => chatBot.onChat(message),
    onRaid: (source: AlertSource) => chatBot.onRaid(source),
    tick: () => chatBot.tick(),
    stop: () => chatBot.stop(),
  };
  return { bot, live, sent, timers, settings, own, logs };
}

/** The signed-in streamer's user id in these tests. */
export const STREAMER_ID = 1;

let next = 0;
export function chat(
  content: string,
  username = 'viewer',
  badges: KickBadge[] = [],
  userId = username.length * 1000 + username.charCodeAt(0),
): ChatMessageView {
  next += 1;
  return {
    messageId: `c${next}`,
    content,
    emotes: [],
    sender: {
      userId,
      username,
      color: null,
      badges,
      isVerified: false,
    },
    replyTo: null,
    sentAtMs: 0,
    deleted: false,
  };
}

/** A Kick event as the bus delivers it. */
export function event(type: string, payload: Record<string, unknown>, receivedAtMs = 0): KickEvent {
  next += 1;
  return {
    kind: 'known',
    type,
    version: 1,
    messageId: `e${next}`,
    subscriptionId: 's',
    timestamp: '',
    receivedAtMs,
    payload,
  } as unknown as KickEvent;
}

export const gift = (gifter: string, count: number): KickEvent =>
  event('channel.subscription.gifts', {
    gifter: { username: gifter, is_anonymous: false },
    giftees: Array.from({ length: count }, (_, i) => ({ username: `g${i}` })),
  });

export const redemption = (redeemer: string, reward: string): KickEvent =>
  event('channel.reward.redemption.updated', {
    id: `r-${redeemer}-${reward}`,
    user_input: '',
    status: 'pending',
    redeemer: { username: redeemer },
    reward: { id: reward, title: reward, cost: 100, description: '' },
  });

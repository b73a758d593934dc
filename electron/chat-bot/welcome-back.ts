/**
 * The "welcome back" reply ([welcome back](../../docs/chat-bot.md#welcome-back)): a chatter's first line in a live
 * stream, when the history last saw them at least N days before that line. Once per viewer per stream: this run
 * remembers who it has judged, and after a restart the history itself remembers (their earlier line in this stream
 * is recent). Never the broadcaster; the bot and other bots never reach here (chat-bot.ts).
 */
import type { WelcomeBack } from '../../shared/chat-bot';
import { fillTemplate } from '../../shared/overlays';
import type { ChatMessageView } from '../../shared/views';
import { type BotHistory, followageWords, streamsWords } from './history-variables';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Chatters judged in one stream, at most: a bound on memory, far above any real chat. */
const MAX_JUDGED = 200_000;

export class WelcomeBackReplies {
  readonly #history: BotHistory | undefined;
  readonly #now: () => number;
  #streamKey: number | null = null;
  readonly #judged = new Set<number>();

  constructor(history: BotHistory | undefined, now: () => number) {
    this.#history = history;
    this.#now = now;
  }

  /**
   * The reply for this line, or null. Every chatter is judged at their first line of the stream only, welcomed or
   * not: a later line never brings a welcome the first did not.
   */
  reply(
    settings: WelcomeBack,
    message: ChatMessageView,
    stream: { live: boolean; startedAtMs: number | null },
    fromBroadcaster: boolean,
  ): string | null {
    const userId = message.sender.userId;
    if (!settings.enabled || !this.#history || !stream.live || fromBroadcaster || userId === null) {
      return null;
    }
    const key = stream.startedAtMs ?? 0;
    if (key !== this.#streamKey) {
      this.#streamKey = key;
      this.#judged.clear();
    }
    if (this.#judged.has(userId) || this.#judged.size >= MAX_JUDGED) {
      return null;
    }
    this.#judged.add(userId);
    const recall = this.#history.recall(userId, message.sentAtMs);
    if (recall === null || recall.lastSeenBeforeMs === null) {
      return null;
    }
    // To the whole second: Kick dates chat in whole seconds, and the history keeps such a time as the latest
    // moment of its second ([which stream](../../docs/history.md#which-stream-an-event-belongs-to)), so ten days
    // to the second would otherwise read as 9.99 days.
    const away = wholeSecond(message.sentAtMs) - wholeSecond(recall.lastSeenBeforeMs);
    if (away < settings.afterDays * DAY_MS) {
      return null;
    }
    return fillTemplate(settings.template, {
      user: message.sender.username,
      days: String(Math.floor(away / DAY_MS)),
      followage: followageWords(recall, this.#now()),
      streams: streamsWords(recall),
    }).slice(0, 500);
  }
}

function wholeSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

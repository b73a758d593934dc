/**
 * What the bot itself posted, so it never reads its own words as a command (../../docs/chat-bot.md#who-the-bot-never-answers).
 * Kick announces every message, the bot's own too, as `chat.message.sent`; a reply of `{args}` to
 * `!s !s !s …` would otherwise answer itself once per `!s`. Sent as the streamer, the echo even carries the
 * broadcaster's badge.
 *
 * An echo is recognised by Kick's message id once the send has answered, and by its text (from the moment the
 * request leaves) from the account that sent it, since the webhook may arrive before Kick's answer. Each
 * text matches one echo. The bot's account is learnt from the first echo matched by id, and everything it
 * says is the bot's. The streamer's own messages typed in the panel are theirs, not the bot's: a `!uptime`
 * they type is answered.
 */
import type { ChatMessageView } from '../../shared/views';

/** How a message went out. */
export interface SentMessage {
  content: string;
  as: 'bot' | 'user';
  /** Typed by the streamer in the panel, rather than posted by the bot. */
  manual: boolean;
}

export interface OwnMessagesDeps {
  now: () => number;
  /** The signed-in streamer's user id, when known. */
  streamerUserId: () => number | null;
  /** How long a sent text waits for its echo. */
  keepMs?: number;
}

interface Sending {
  text: string;
  as: 'bot' | 'user';
  atMs: number;
  echoed: boolean;
}

/** More than the queue sends in the time an echo takes; the oldest go first. */
const MAX_IDS = 1000;
const MAX_TEXTS = 200;

export class OwnMessages {
  readonly #options: OwnMessagesDeps;
  readonly #ids = new Map<string, Sending>();
  #texts: Sending[] = [];
  #botUserId: number | null = null;

  constructor(options: OwnMessagesDeps) {
    this.#options = options;
  }

  /** A message is about to be sent: from now on its echo is recognised by its text. */
  sending(message: SentMessage): { sent(messageId: string | undefined): void; failed(): void } {
    if (message.manual && message.as === 'user') {
      // The streamer's own words: theirs to have answered.
      return { sent: () => undefined, failed: () => undefined };
    }
    const entry: Sending = { text: message.content.trim(), as: message.as, atMs: this.#options.now(), echoed: false };
    this.#texts.push(entry);
    if (this.#texts.length > MAX_TEXTS) {
      this.#texts.shift();
    }
    return {
      sent: (messageId) => {
        if (messageId) {
          this.#ids.set(messageId, entry);
          if (this.#ids.size > MAX_IDS) {
            this.#ids.delete(this.#ids.keys().next().value!);
          }
        }
      },
      failed: () => {
        this.#texts = this.#texts.filter((t) => t !== entry);
      },
    };
  }

  /** Whether `message` is the bot's own: its account, or the echo of something it posted as the streamer. */
  isOwn(message: ChatMessageView): boolean {
    const senderId = message.sender.userId;
    const byId = this.#ids.get(message.messageId);
    if (byId) {
      byId.echoed = true;
      if (byId.as === 'bot' && senderId !== null) {
        this.#botUserId = senderId;
      }
      return true;
    }
    if (senderId !== null && senderId === this.#botUserId) {
      return true;
    }
    const byText = this.#echoByText(message);
    if (byText) {
      byText.echoed = true;
    }
    return byText !== undefined;
  }

  #echoByText(message: ChatMessageView): Sending | undefined {
    const oldest = this.#options.now() - (this.#options.keepMs ?? 120_000);
    this.#texts = this.#texts.filter((t) => t.atMs >= oldest && !t.echoed);
    const text = message.content.trim();
    return this.#texts.find((t) => t.text === text && this.#mayHaveSent(t.as, message));
  }

  /** Whether the sender can be the account `as` posts from. */
  #mayHaveSent(as: 'bot' | 'user', message: ChatMessageView): boolean {
    const senderId = message.sender.userId;
    if (as === 'user') {
      const streamer = this.#options.streamerUserId();
      return streamer !== null ? senderId === streamer : message.sender.badges.some((b) => b.type === 'broadcaster');
    }
    // Until an echo has shown the bot's account, any account but the streamer's may be it.
    return this.#botUserId === null
      ? !message.sender.badges.some((b) => b.type === 'broadcaster')
      : senderId === this.#botUserId;
  }
}

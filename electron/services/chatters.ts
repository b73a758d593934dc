/**
 * Who has chatted in this channel (docs/chat-tools.md): each chatter's first message time and message
 * count, for the first-message highlight and the user card. Filled from the journal replay at start-up and
 * then live, so it reaches back as far as the journal does and survives a restart without a file of its
 * own. Bounded: past {@link MAX_CHATTERS} the least recently active are forgotten, so a raid of strangers
 * cannot grow main's memory without limit.
 *
 * "First message" means first in this channel as far as Greenroom can tell, and it can tell only once it has
 * heard the channel's chat for {@link FIRST_MESSAGE_AFTER_MS}: before that, on a fresh install, it knows
 * nobody, and marking every regular as new would be wrong
 * ([chat tools](../../docs/chat-tools.md#what-first-message-means)). The rule reads only message times, so
 * the journal replay at start-up marks exactly what the live path marked.
 */
import type { ChatMessageView } from '../../shared/views';

/** Chatters remembered at most (about 60 bytes each). */
export const MAX_CHATTERS = 100_000;

/**
 * How long Greenroom must have heard a channel's chat before it marks first messages: a week, so a regular
 * who chats once a week is known by then.
 */
export const FIRST_MESSAGE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export interface ChatterStats {
  firstSeenMs: number;
  messageCount: number;
}

export class Chatters {
  readonly #max: number;
  /** Map order is least recently active first. */
  readonly #stats = new Map<string, ChatterStats>();
  /** The earliest message time heard (the journal's oldest chat after a restart), or null before any. */
  #heardSinceMs: number | null = null;

  constructor(max = MAX_CHATTERS) {
    this.#max = max;
  }

  /**
   * Counts one message; true when it is the chatter's first that Greenroom has seen and Greenroom had heard
   * the channel's chat for {@link FIRST_MESSAGE_AFTER_MS} before it, so "first" means something.
   */
  note(message: Pick<ChatMessageView, 'sender' | 'sentAtMs'>): boolean {
    this.#heardSinceMs = Math.min(this.#heardSinceMs ?? message.sentAtMs, message.sentAtMs);
    const key = keyOf(message.sender);
    const known = this.#stats.get(key);
    if (known) {
      this.#stats.delete(key);
      known.messageCount++;
      known.firstSeenMs = Math.min(known.firstSeenMs, message.sentAtMs);
      this.#stats.set(key, known);
      return false;
    }
    this.#stats.set(key, { firstSeenMs: message.sentAtMs, messageCount: 1 });
    if (this.#stats.size > this.#max) {
      this.#stats.delete(this.#stats.keys().next().value!);
    }
    return message.sentAtMs - this.#heardSinceMs >= FIRST_MESSAGE_AFTER_MS;
  }

  /** A chatter's figures, or null when they have not chatted as far back as the journal reaches. */
  stats(userId: number): ChatterStats | null {
    const found = this.#stats.get(`#${userId}`);
    return found ? { ...found } : null;
  }
}

function keyOf(sender: ChatMessageView['sender']): string {
  return sender.userId !== null ? `#${sender.userId}` : `@${sender.username.toLowerCase()}`;
}

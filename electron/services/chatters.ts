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
 * ([chat tools](../../docs/chat-tools.md#what-first-message-means)). "Heard" is measured by when Greenroom
 * received each message (the journal keeps that time), never by the time the message claims: a line stamped
 * in the year 1 would otherwise make a fresh install believe it had heard years of chat. Receive times are in
 * the journal, so the replay at start-up marks exactly what the live path marked.
 */
import type { ChatMessageView } from '../../shared/views';

/** Chatters remembered at most (about 60 bytes each). */
export const MAX_CHATTERS = 100_000;

/**
 * How long Greenroom must have heard a channel's chat before it marks first messages: a week, so a regular
 * who chats once a week is known by then.
 */
export const FIRST_MESSAGE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How late a message may arrive after the time it claims: the longest replay window the receiver accepts
 * (config.ts), so no genuine delivery is clamped.
 */
const MAX_LATE_MS = 7 * 24 * 60 * 60 * 1000;

export interface ChatterStats {
  firstSeenMs: number;
  messageCount: number;
}

export class Chatters {
  readonly #max: number;
  /** Map order is least recently active first. */
  readonly #stats = new Map<string, ChatterStats>();
  /** When the earliest chat message heard was received (the journal's oldest after a restart), or null. */
  #heardSinceMs: number | null = null;

  constructor(max = MAX_CHATTERS) {
    this.#max = max;
  }

  /**
   * Counts one message Greenroom received at `receivedAtMs`; true when it is the chatter's first that
   * Greenroom has seen and Greenroom had heard the channel's chat for {@link FIRST_MESSAGE_AFTER_MS} before
   * it, so "first" means something.
   */
  note(message: Pick<ChatMessageView, 'sender' | 'sentAtMs'>, receivedAtMs: number): boolean {
    this.#heardSinceMs = Math.min(this.#heardSinceMs ?? receivedAtMs, receivedAtMs);
    // The card's "first chatted" may show Kick's own time, but only within the receiver's replay window of
    // the receipt: a message can be late by that much, never by years, nor from the future.
    const sentAtMs = Math.min(receivedAtMs, Math.max(message.sentAtMs, receivedAtMs - MAX_LATE_MS));
    const key = keyOf(message.sender);
    const known = this.#stats.get(key);
    if (known) {
      this.#stats.delete(key);
      known.messageCount++;
      known.firstSeenMs = Math.min(known.firstSeenMs, sentAtMs);
      this.#stats.set(key, known);
      return false;
    }
    this.#stats.set(key, { firstSeenMs: sentAtMs, messageCount: 1 });
    if (this.#stats.size > this.#max) {
      this.#stats.delete(this.#stats.keys().next().value!);
    }
    return receivedAtMs - this.#heardSinceMs >= FIRST_MESSAGE_AFTER_MS;
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

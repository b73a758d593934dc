/**
 * The chat kept in main: a bounded ring of the last N messages (settings' scrollback, default 1,000) for a
 * panel that opens or reconnects, plus each user's recent messages for the user card, kept while Greenroom
 * runs even after they scrolled out of the ring (Chatterino's user card, [design notes](../../docs/design-notes.md#what-streamers-and-moderators-ask-for) #6). Both are bounded,
 * so memory stays flat over a long stream ([design notes](../../docs/design-notes.md#what-streamers-and-moderators-ask-for) #10).
 * The user cards' lines are bounded in all as well as per user: 2,000 chatters with 50 lines each were 100,000
 * lines (about 100 MB) held for cards few of them will ever open ([decisions](../../docs/decisions.md#the-user-cards-lines-are-bounded-in-all)).
 */
import type { ChatMessageView, ChatUserView } from '../../shared/views';

/** Sizes; every bound is a positive integer. */
export interface ChatHistoryOptions {
  /** Messages in the ring; default 1,000. */
  capacity?: number;
  /** Messages kept per user for the user card; default 50. */
  perUser?: number;
  /** Users remembered for the user card (least recently active dropped first); default 2,000. */
  users?: number;
  /**
   * Lines kept for the user cards in all, over every user, and never fewer than the ring's capacity; beyond it
   * the least recently active user's oldest line goes first. Default {@link CARD_LINES_MAX}.
   */
  cardLines?: number;
}

/** The user cards' lines kept in all by default: five times the default ring. */
export const CARD_LINES_MAX = 5000;

/** The bounded chat ring plus per-user recent messages. */
export class ChatHistory {
  #capacity: number;
  readonly #perUser: number;
  readonly #maxUsers: number;
  readonly #maxCardLines: number;
  /** Lines in `#byUser`'s lists, in all. */
  #cardLines = 0;
  /** Oldest first from `#start`; the dropped ones before it are cut off in chunks (see `#trim`). */
  #ring: ChatMessageView[] = [];
  #start = 0;
  readonly #byId = new Map<string, ChatMessageView>();
  /** user id → that user's recent messages, oldest first; Map order is least recently active first. */
  readonly #byUser = new Map<number, ChatMessageView[]>();

  constructor(options: ChatHistoryOptions = {}) {
    this.#capacity = positive(options.capacity ?? 1000);
    this.#perUser = positive(options.perUser ?? 50);
    this.#maxUsers = positive(options.users ?? 2000);
    this.#maxCardLines = positive(options.cardLines ?? CARD_LINES_MAX);
  }

  get capacity(): number {
    return this.#capacity;
  }

  /** Adds a message; returns false for a message id already kept (the same message never shows twice). */
  add(message: ChatMessageView): boolean {
    if (this.#byId.has(message.messageId)) {
      return false;
    }
    this.#ring.push(message);
    this.#byId.set(message.messageId, message);
    this.#trim();
    this.#noteUser(message);
    return true;
  }

  /**
   * Puts `message` where the kept line with its id is, in the ring and in the user card's lists: Kick's signed
   * copy of a line the live socket told otherwise ([design notes](../../docs/design-notes.md#chat-from-the-live-socket-first)).
   * Returns false when no line with its id is kept.
   */
  replace(message: ChatMessageView): boolean {
    const old = this.find(message.messageId);
    if (!old) {
      return false;
    }
    const at = this.#ring.indexOf(old, this.#start);
    if (at >= 0) {
      this.#ring[at] = message;
      this.#byId.set(message.messageId, message);
    }
    const list = old.sender.userId === null ? undefined : this.#byUser.get(old.sender.userId);
    const i = list?.indexOf(old) ?? -1;
    if (i >= 0 && old.sender.userId === message.sender.userId) {
      list![i] = message;
    } else {
      // Another sender: the line leaves the first one's card and joins the signed sender's.
      if (i >= 0) {
        list!.splice(i, 1);
        this.#cardLines--;
      }
      this.#noteUser(message);
    }
    return true;
  }

  /** Adds the message to its sender's recent list, for the user card. */
  #noteUser(message: ChatMessageView): void {
    const userId = message.sender.userId;
    if (userId !== null) {
      const list = this.#byUser.get(userId) ?? [];
      this.#byUser.delete(userId);
      const last = list[list.length - 1];
      if (last !== undefined && last.sender !== message.sender && sameSender(last.sender, message.sender)) {
        // One sender object per chatter while their name, colour and badges stay the same: a raid's kept lines
        // would otherwise each hold a copy, nearly half of a kept line's memory
        // (docs/decisions.md#a-chatters-lines-share-one-sender).
        message.sender = last.sender;
      }
      list.push(message);
      this.#cardLines++;
      if (list.length > this.#perUser) {
        this.#cardLines -= list.splice(0, list.length - this.#perUser).length;
      }
      this.#byUser.set(userId, list);
      if (this.#byUser.size > this.#maxUsers) {
        this.#dropLeastActive(Infinity);
      }
      // Never fewer than the ring holds (the scrollback setting goes up to 10,000): a line on screen is on its card.
      const bound = Math.max(this.#maxCardLines, this.#capacity);
      while (this.#cardLines > bound && this.#byUser.size > 0) {
        this.#dropLeastActive(this.#cardLines - bound);
      }
    }
  }

  /** Drops up to `count` of the least recently active user's oldest lines, and the user once none is left. */
  #dropLeastActive(count: number): void {
    const first = this.#byUser.entries().next();
    if (first.done) {
      return;
    }
    const [userId, list] = first.value;
    const dropped = Math.min(count, list.length);
    if (dropped === list.length) {
      this.#byUser.delete(userId);
    } else {
      list.splice(0, dropped);
    }
    this.#cardLines -= dropped;
  }

  /** The ring, oldest first. */
  messages(): ChatMessageView[] {
    return this.#ring.slice(this.#start);
  }

  /** A message still in the ring or in a user's recent list. */
  find(messageId: string): ChatMessageView | undefined {
    return this.#byId.get(messageId) ?? this.#findInUsers(messageId);
  }

  /** That user's recent messages, oldest first. */
  recentFor(userId: number): ChatMessageView[] {
    return [...(this.#byUser.get(userId) ?? [])];
  }

  /** The name the user last chatted under, if they chatted while Greenroom ran. */
  usernameOf(userId: number): string | null {
    return this.#byUser.get(userId)?.at(-1)?.sender.username ?? null;
  }

  /**
   * Marks a message deleted (kept, shown struck through), or shown again with `deleted` false
   * (auto-moderation's Undo); returns false when it is not known.
   */
  markDeleted(messageId: string, deleted = true): boolean {
    const message = this.find(messageId);
    if (!message) {
      return false;
    }
    message.deleted = deleted;
    return true;
  }

  /** Changes the ring's size (the scrollback setting); shrinking drops the oldest. */
  resize(capacity: number): void {
    this.#capacity = positive(capacity);
    this.#trim();
  }

  /**
   * Drops the oldest beyond the capacity. Only the index moves per message; the array is cut once the dropped
   * part is as long as the ring, so a full ring costs no array shift per chat line (a raid's 400 a second).
   */
  #trim(): void {
    while (this.#ring.length - this.#start > this.#capacity) {
      this.#byId.delete(this.#ring[this.#start]!.messageId);
      this.#start++;
    }
    if (this.#start >= this.#capacity) {
      this.#ring = this.#ring.slice(this.#start);
      this.#start = 0;
    }
  }

  #findInUsers(messageId: string): ChatMessageView | undefined {
    for (const list of this.#byUser.values()) {
      const found = list.find((m) => m.messageId === messageId);
      if (found) {
        return found;
      }
    }
    return undefined;
  }
}

function positive(n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`chat history sizes must be positive integers, got ${n}`);
  }
  return n;
}

/** Whether two senders read the same, badge by badge (a badge with fields beyond Kick's three never matches). */
function sameSender(a: ChatUserView, b: ChatUserView): boolean {
  if (
    a.userId !== b.userId ||
    a.username !== b.username ||
    a.color !== b.color ||
    a.isVerified !== b.isVerified ||
    a.badges.length !== b.badges.length
  ) {
    return false;
  }
  for (let i = 0; i < a.badges.length; i++) {
    const x = a.badges[i]!;
    const y = b.badges[i]!;
    if (x.type !== y.type || x.text !== y.text || x.count !== y.count || !plainBadge(x) || !plainBadge(y)) {
      return false;
    }
  }
  return true;
}

function plainBadge(badge: object): boolean {
  for (const key in badge) {
    if (key !== 'type' && key !== 'text' && key !== 'count') {
      return false;
    }
  }
  return true;
}

/**
 * Each chatter's recent messages for the user card, kept while Greenroom runs: at most `perUser` messages
 * for at most `maxUsers` users, least recently active forgotten first, so memory stays flat over a long
 * stream ([design notes](../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 10). Not reactive by itself: ChatState bumps a version when it changes.
 */
import type { ChatMessageView } from '../../../shared/views';

/** The key a user's messages are kept under: the id, or the name for anonymous senders. */
export function userKey(userId: number | null, username: string): string {
  return userId !== null ? `id:${userId}` : `name:${username.toLowerCase()}`;
}

export class RecentByUser {
  readonly #perUser: number;
  readonly #maxUsers: number;
  #byUser = new Map<string, ChatMessageView[]>();

  constructor(perUser: number, maxUsers: number) {
    this.#perUser = perUser;
    this.#maxUsers = maxUsers;
  }

  add(message: ChatMessageView): void {
    const key = userKey(message.sender.userId, message.sender.username);
    const list = this.#byUser.get(key) ?? [];
    this.#byUser.delete(key);
    list.push(message);
    if (list.length > this.#perUser) {
      list.splice(0, list.length - this.#perUser);
    }
    this.#byUser.set(key, list);
    if (this.#byUser.size > this.#maxUsers) {
      const oldest = this.#byUser.keys().next().value;
      if (oldest !== undefined) {
        this.#byUser.delete(oldest);
      }
    }
  }

  /** A copy of the user's messages, oldest first. */
  get(userId: number | null, username: string): ChatMessageView[] {
    return this.#byUser.get(userKey(userId, username))?.slice() ?? [];
  }

  /** Replaces one message (e.g. marked deleted); returns whether it was found. */
  replace(message: ChatMessageView): boolean {
    const list = this.#byUser.get(userKey(message.sender.userId, message.sender.username));
    const i = list?.findIndex((m) => m.messageId === message.messageId) ?? -1;
    if (!list || i < 0) {
      return false;
    }
    list[i] = message;
    return true;
  }

  clear(): void {
    this.#byUser.clear();
  }
}

/**
 * Typing helpers of the chat input (docs/chat-tools.md), as the best chat clients have them: ↑/↓ through
 * the messages sent from this panel, and @mention completion from the chatters seen most recently. Pure,
 * so the keyboard behaviour is tested without a browser.
 */

/** Sent messages remembered for ↑/↓. */
export const SENT_HISTORY_MAX = 50;
/** Names offered at most for one @mention. */
export const MENTION_SUGGESTIONS_MAX = 6;

/** The messages sent from this panel, newest last, walked with ↑ (older) and ↓ (newer, then the draft). */
export class SentHistory {
  #sent: string[] = [];
  /** Position while walking: `#sent.length` means "at the draft". */
  #at = 0;
  #draft = '';

  add(text: string): void {
    if (this.#sent.at(-1) !== text) {
      this.#sent.push(text);
      if (this.#sent.length > SENT_HISTORY_MAX) {
        this.#sent.shift();
      }
    }
    this.#at = this.#sent.length;
  }

  /** The previous sent message, keeping what was typed so ↓ can bring it back; null at the oldest. */
  older(current: string): string | null {
    if (this.#at === 0) {
      return null;
    }
    if (this.#at === this.#sent.length) {
      this.#draft = current;
    }
    this.#at--;
    return this.#sent[this.#at]!;
  }

  /** The next newer message, or the draft after the newest; null when not walking. */
  newer(): string | null {
    if (this.#at >= this.#sent.length) {
      return null;
    }
    this.#at++;
    return this.#at === this.#sent.length ? this.#draft : this.#sent[this.#at]!;
  }
}

/** The `@word` the caret is in: where it starts and what is typed after the `@`. */
export interface MentionQuery {
  start: number;
  end: number;
  prefix: string;
}

export function mentionAt(content: string, caret: number): MentionQuery | null {
  const before = content.slice(0, caret);
  const match = /(?:^|\s)@([A-Za-z0-9_]{0,25})$/.exec(before);
  if (!match) {
    return null;
  }
  const after = /^[A-Za-z0-9_]*/.exec(content.slice(caret))![0];
  return { start: caret - match[1]!.length - 1, end: caret + after.length, prefix: match[1]! };
}

/** Names that start with the prefix (any case), in the order given (most recent chatter first). */
export function suggestMentions(names: readonly string[], prefix: string): string[] {
  const lower = prefix.toLowerCase();
  const out: string[] = [];
  for (const name of names) {
    if (name.toLowerCase().startsWith(lower) && name.toLowerCase() !== lower) {
      out.push(name);
      if (out.length === MENTION_SUGGESTIONS_MAX) {
        break;
      }
    }
  }
  return out;
}

/** The content with the @word replaced by the chosen name and a space, and where the caret goes. */
export function applyMention(content: string, query: MentionQuery, name: string): { content: string; caret: number } {
  const head = `${content.slice(0, query.start)}@${name} `;
  const tail = content.slice(query.end).replace(/^ /, '');
  return { content: head + tail, caret: head.length };
}

/** Distinct sender names, most recent first, from messages oldest first; at most `max`. */
export function recentNames(messages: readonly { sender: { username: string } }[], max = 200): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0 && out.length < max; i--) {
    const name = messages[i]!.sender.username;
    const key = name.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(name);
    }
  }
  return out;
}

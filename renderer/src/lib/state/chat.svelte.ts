/**
 * Live chat: a bounded scrollback (default 1,000, `settings.chatScrollback`), new messages buffered and
 * flushed at the next paced frame (`chatFlushFrames`: at most about 30 a second in a raid), pause (hover,
 * scroll-up, held key) with an "N new" count, deletions marked in place. Each user's recent messages for the
 * user card are kept once, in main's chat history; the card fetches them when it opens and adds what arrives
 * in this scrollback while it is open, so a raid of thousands of chatters does not hold a second copy of their
 * messages in every panel. Memory stays flat over a long stream
 * ([design notes](../../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 10): every list
 * here has a cap.
 */
import { SvelteSet } from 'svelte/reactivity';
import type { PanelApi } from '../../../../shared/panel-api';
import type { ChatMessageView } from '../../../../shared/views';
import { chatFlushFrames, type FrameScheduler } from '../clock';
import { explainError, type ShownError } from '../error-text';

export type PauseReason = 'hover' | 'scroll' | 'key';

export const DEFAULT_SCROLLBACK = 1000;
const SCROLLBACK_MIN = 100;
const SCROLLBACK_MAX = 10_000;
/** Messages the card shows per user (main keeps as many). */
export const RECENT_PER_USER = 50;

/** What the chat reading tools decide per message (chat-tools.svelte.ts); none in the simplest panels. */
export interface ChatFilter {
  /** A message from an ignored chatter is not kept. */
  isIgnored(message: ChatMessageView): boolean;
  /** A live message arrived (not one from history): the highlight sound hears it. */
  heard(message: ChatMessageView): void;
}

const NO_FILTER: ChatFilter = { isIgnored: () => false, heard: () => undefined };

/** Chat scrollback, batching and pause. */
export class ChatState {
  #api: PanelApi;
  #schedule: FrameScheduler;
  #filter: ChatFilter;
  #messages = $state.raw<ChatMessageView[]>([]);
  #held = $state.raw<ChatMessageView[]>([]);
  #reasons = new SvelteSet<PauseReason>();
  #newCount = $state(0);
  #limit = $state(DEFAULT_SCROLLBACK);
  #loading = $state(false);
  #error = $state.raw<ShownError | null>(null);
  #buffer: ChatMessageView[] = [];
  #frameRequested = false;
  // Bookkeeping only, never rendered: ids in scrollback for dedupe (deliberately not reactive).
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #ids = new Set<string>();

  readonly paused = $derived(this.#reasons.size > 0);

  constructor(api: PanelApi, schedule: FrameScheduler = chatFlushFrames(), filter: ChatFilter = NO_FILTER) {
    this.#api = api;
    this.#schedule = schedule;
    this.#filter = filter;
  }

  get messages(): readonly ChatMessageView[] {
    return this.#messages;
  }
  get newCount(): number {
    return this.#newCount;
  }
  get limit(): number {
    return this.#limit;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): ShownError | null {
    return this.#error;
  }
  get pauseReasons(): ReadonlySet<PauseReason> {
    return this.#reasons;
  }

  /** Sets the scrollback cap (clamped to what settings allow) and trims at once. */
  setLimit(limit: number): void {
    this.#limit = Math.min(SCROLLBACK_MAX, Math.max(SCROLLBACK_MIN, Math.round(limit)));
    this.#messages = this.#trim(this.#messages);
    this.#held = this.#trim(this.#held);
  }

  /**
   * Restores recent chat from main after a start or reconnect, or after the ignore list shrank;
   * duplicates and ignored chatters are skipped.
   */
  async loadHistory(): Promise<void> {
    this.#loading = true;
    this.#error = null;
    const result = await this.#api.chat.history();
    this.#loading = false;
    if (!result.ok) {
      this.#error = explainError(result.error);
      return;
    }
    const fresh = result.value.filter((m) => !this.#ids.has(m.messageId) && !this.#filter.isIgnored(m));
    for (const m of fresh) {
      this.#ids.add(m.messageId);
    }
    // At start-up the history is older than anything live; a chatter no longer ignored has lines among
    // those already shown, so then they are merged in by time.
    const oldestShown = this.#messages[0]?.sentAtMs ?? Infinity;
    const merged = fresh.every((m) => m.sentAtMs <= oldestShown)
      ? [...fresh, ...this.#messages]
      : [...this.#messages, ...fresh].sort((a, b) => a.sentAtMs - b.sentAtMs);
    this.#messages = this.#trim(merged);
  }

  /** One incoming message: buffered until the next flush. */
  receive(message: ChatMessageView): void {
    if (this.#ids.has(message.messageId) || this.#filter.isIgnored(message)) {
      return;
    }
    this.#filter.heard(message);
    this.#ids.add(message.messageId);
    this.#buffer.push(message);
    if (this.#buffer.length > this.#limit * 2) {
      // A hidden dock gets no frames; keep the buffer within the cap too.
      for (const dropped of this.#buffer.splice(0, this.#buffer.length - this.#limit)) {
        this.#ids.delete(dropped.messageId);
      }
    }
    if (!this.#frameRequested) {
      this.#frameRequested = true;
      this.#schedule(() => this.flush());
    }
  }

  /** Moves buffered messages into view (or into the held queue while paused). Called once per paced frame. */
  flush(): void {
    this.#frameRequested = false;
    if (this.#buffer.length === 0) {
      return;
    }
    const batch = this.#buffer;
    this.#buffer = [];
    if (this.paused) {
      this.#held = this.#trim(this.#held.concat(batch));
      this.#newCount += batch.length;
    } else {
      this.#messages = this.#trim(this.#messages.concat(batch));
    }
  }

  pause(reason: PauseReason): void {
    this.#reasons.add(reason);
  }

  /** Lifts one pause reason; when none is left, held messages join the log. */
  resume(reason: PauseReason): void {
    if (this.#reasons.delete(reason) && this.#reasons.size === 0) {
      this.#release();
    }
  }

  /** The "N new messages" jump: lift every reason. */
  resumeAll(): void {
    this.#reasons.clear();
    this.#release();
  }

  /** The ignore list changed: messages from chatters now ignored leave the scrollback at once. */
  refilter(): void {
    const keep = (list: ChatMessageView[]): ChatMessageView[] => {
      const kept = list.filter((m) => {
        const ignored = this.#filter.isIgnored(m);
        if (ignored) {
          // Forgotten, so a later un-ignore can bring the line back from main's history.
          this.#ids.delete(m.messageId);
        }
        return !ignored;
      });
      return kept.length === list.length ? list : kept;
    };
    this.#buffer = keep(this.#buffer);
    this.#messages = keep(this.#messages);
    this.#held = keep(this.#held);
  }

  /** Marks a message deleted wherever it is (Kick sends no deletion event; main tells us ours). */
  markDeleted(messageId: string, deleted = true): void {
    const mark = (list: ChatMessageView[]): ChatMessageView[] | null => {
      const i = list.findIndex((m) => m.messageId === messageId);
      if (i < 0 || list[i]!.deleted === deleted) {
        return null;
      }
      const copy = list.slice();
      copy[i] = { ...list[i]!, deleted };
      return copy;
    };
    this.#buffer = mark(this.#buffer) ?? this.#buffer;
    this.#messages = mark(this.#messages) ?? this.#messages;
    this.#held = mark(this.#held) ?? this.#held;
  }

  /**
   * Puts `message` in place of the line with its id wherever it is (Kick's signed copy of a line the live socket
   * told otherwise); a line from a chatter now ignored leaves instead. A line not held here is left to the history.
   */
  replace(message: ChatMessageView): void {
    const ignored = this.#filter.isIgnored(message);
    const swap = (list: ChatMessageView[]): ChatMessageView[] => {
      const i = list.findIndex((m) => m.messageId === message.messageId);
      if (i < 0) {
        return list;
      }
      const copy = list.slice();
      if (ignored) {
        // Forgotten, as refilter does, so an un-ignore can bring the line back from main's history.
        copy.splice(i, 1);
        this.#ids.delete(message.messageId);
      } else {
        copy[i] = message;
      }
      return copy;
    };
    this.#buffer = swap(this.#buffer);
    this.#messages = swap(this.#messages);
    this.#held = swap(this.#held);
  }

  /**
   * A user's messages in this scrollback (shown and held), oldest first, at most `RECENT_PER_USER`; reactive
   * to new messages. Senders without an id are matched by name, case-insensitively.
   */
  recentFor(userId: number | null, username: string): ChatMessageView[] {
    const name = username.toLowerCase();
    const mine = (m: ChatMessageView): boolean =>
      userId !== null
        ? m.sender.userId === userId
        : m.sender.userId === null && m.sender.username.toLowerCase() === name;
    return [...this.#messages.filter(mine), ...this.#held.filter(mine)].slice(-RECENT_PER_USER);
  }

  /** Finds a message in view by id. */
  find(messageId: string): ChatMessageView | undefined {
    return this.#messages.find((m) => m.messageId === messageId);
  }

  reset(): void {
    this.#messages = [];
    this.#held = [];
    this.#reasons.clear();
    this.#newCount = 0;
    this.#limit = DEFAULT_SCROLLBACK;
    this.#loading = false;
    this.#error = null;
    this.#buffer = [];
    this.#frameRequested = false;
    this.#ids.clear();
  }

  #release(): void {
    if (this.#held.length > 0) {
      this.#messages = this.#trim(this.#messages.concat(this.#held));
      this.#held = [];
    }
    this.#newCount = 0;
  }

  #trim(list: ChatMessageView[]): ChatMessageView[] {
    if (list.length <= this.#limit) {
      return list;
    }
    const cut = list.length - this.#limit;
    for (let i = 0; i < cut; i++) {
      this.#ids.delete(list[i]!.messageId);
    }
    return list.slice(cut);
  }
}

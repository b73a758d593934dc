/**
 * The user card ([design notes](../../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 6): the user's recent messages (what main kept while Greenroom ran,
 * fetched on open, plus what arrives in this panel's scrollback while the card is open) and the moderation actions taken on them, with a selected message for the
 * keyboard's Delete.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import type { ChatMessageView, ModAction, UserCardView } from '../../../../shared/views';
import { mergeBy } from '../collections';
import type { ShownError } from '../error-text';
import type { ChatState } from './chat.svelte';
import { HeldError, type GoneCause } from './held-error.svelte';
import type { ModerationState } from './moderation.svelte';

export interface CardTarget {
  userId: number | null;
  username: string;
}

/** The open card, if any. */
export class UserCardState {
  #api: PanelApi;
  #chat: ChatState;
  #mod: ModerationState;
  #target = $state.raw<CardTarget | null>(null);
  #remote = $state.raw<UserCardView | null>(null);
  #loading = $state(false);
  #error = new HeldError();
  #selected = $state<string | null>(null);
  #noteSaving = $state(false);
  #noteError = new HeldError();

  readonly messages: ChatMessageView[] = $derived.by(() => {
    const target = this.#target;
    if (!target) {
      return [];
    }
    return mergeBy(
      (m) => m.messageId,
      this.#remote?.recentMessages ?? [],
      this.#chat.recentFor(target.userId, target.username),
    ).sort((a, b) => a.sentAtMs - b.sentAtMs);
  });

  readonly actions: ModAction[] = $derived.by(() => {
    const target = this.#target;
    if (!target || target.userId === null) {
      return [];
    }
    return mergeBy((a) => a.id, this.#remote?.actions ?? [], this.#mod.actionsFor(target.userId)).sort(
      (a, b) => b.atMs - a.atMs,
    );
  });

  constructor(api: PanelApi, chat: ChatState, mod: ModerationState) {
    this.#api = api;
    this.#chat = chat;
    this.#mod = mod;
  }

  get target(): CardTarget | null {
    return this.#target;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): ShownError | null {
    return this.#error.shown;
  }
  /** Main has answered for this card: only then does a missing `chatter` mean "never chatted". */
  get answered(): boolean {
    return this.#remote !== null;
  }
  /** First seen and message count, once main has answered; null for someone who never chatted. */
  get chatter(): UserCardView['chatter'] {
    return this.#remote?.chatter ?? null;
  }
  /** The private note as main keeps it ('' for none, or before main answered). */
  get note(): string {
    return this.#remote?.note ?? '';
  }
  get noteSaving(): boolean {
    return this.#noteSaving;
  }
  get noteError(): ShownError | null {
    return this.#noteError.shown;
  }

  /**
   * A load or note error whose cause `cause` ended goes (held-error.svelte.ts); a card that could not load
   * for that reason loads now, rather than showing nothing as if the chatter were new.
   */
  clearIfEnded(cause: GoneCause): void {
    this.#noteError.clearIfEnded(cause);
    const target = this.#target;
    if (this.#error.clearIfEnded(cause) && target) {
      void this.open(target, this.#selected ?? undefined);
    }
  }

  /** Keeps the private note on the open card's chatter; '' removes it. */
  async saveNote(note: string): Promise<boolean> {
    const target = this.#target;
    if (!target || target.userId === null) {
      return false;
    }
    this.#noteSaving = true;
    this.#noteError.clear();
    const result = await this.#api.mod.setNote({ userId: target.userId, note });
    this.#noteSaving = false;
    if (this.#target !== target) {
      return false;
    }
    if (!result.ok) {
      this.#noteError.fail(result.error);
      return false;
    }
    this.#remote = result.value;
    return true;
  }

  get selectedId(): string | null {
    return this.#selected;
  }
  get selected(): ChatMessageView | undefined {
    return this.messages.find((m) => m.messageId === this.#selected);
  }

  /** Opens the card for a user; the selected message defaults to the one clicked. */
  async open(target: CardTarget, messageId?: string): Promise<void> {
    this.#target = target;
    this.#remote = null;
    this.#error.clear();
    this.#selected = messageId ?? null;
    if (target.userId === null) {
      return;
    }
    this.#loading = true;
    const result = await this.#api.mod.userCard({ userId: target.userId });
    if (this.#target !== target) {
      return;
    }
    this.#loading = false;
    if (result.ok) {
      this.#remote = result.value;
    } else {
      this.#error.fail(result.error);
    }
  }

  select(messageId: string | null): void {
    this.#selected = messageId;
  }

  close(): void {
    this.#target = null;
    this.#remote = null;
    this.#selected = null;
    this.#loading = false;
    this.#error.clear();
    this.#noteError.clear();
  }

  reset(): void {
    this.close();
  }
}

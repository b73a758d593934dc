/**
 * The chat input: send as the streamer or the bot, an optional reply target, a live counter against Kick's
 * 500-character limit (counted in code points, as Kick does), and a plain reason whenever sending is not
 * possible (Greenroom not running, signed out, not allowed to send chat, empty, too long). Signed in without
 * the permission, it names what to allow as the Health tab words it; Kick's name for it (`chat:write`) stays
 * behind Details ({@link ComposerState.missingPermission}, lib/access.ts).
 *
 * A send error stays only while its cause may still hold: it clears on the next send, when the link to
 * Greenroom comes back, and on a new sign-in (`clearError`, called by the app state;
 * [design notes](../../../../docs/design-notes.md#when-greenroom-is-not-running)).
 */
import type { PanelApi } from '../../../../shared/panel-api';
import { countCodePoints, LIMITS } from '../../../../shared/limits';
import type { KickScope } from '../../../../shared/kick/scopes';
import type { ChatMessageView } from '../../../../shared/views';
import { accessFor, type Access } from '../access';
import { explainError, plainError, type ShownError } from '../error-text';
import { applyMention, mentionAt, recentNames, SentHistory, suggestMentions } from '../chat-typing';
import { NOT_RUNNING } from './connection.svelte';
import type { SessionState } from './session.svelte';

export type SendAs = 'user' | 'bot';

/** Draft, reply target and sending. */
export class ComposerState {
  #api: PanelApi;
  #session: SessionState;
  #replyTo = $state.raw<ChatMessageView | null>(null);
  #sending = $state(false);
  #error = $state.raw<ShownError | null>(null);
  #history = new SentHistory();
  #chatters: () => readonly { sender: { username: string } }[];
  #cutOff: () => boolean;
  /** Where the caret is in the input, kept by the input so @mention completion knows the word. */
  caret = $state(0);
  /** The highlighted @mention suggestion. */
  suggestionIndex = $state(0);

  /** Bound to the input. */
  content = $state('');
  /** Bound to the "send as" switch. */
  as = $state<SendAs>('user');

  readonly length = $derived(countCodePoints(this.content));
  readonly overLimit = $derived(this.length > LIMITS.chatContentMax);
  /** Signed in without the permission to send chat: what to allow, with Kick's name for it behind Details. */
  readonly missingPermission: Access | null = $derived.by(() => {
    if (this.#cutOff() || !this.#session.signedIn) {
      return null;
    }
    const access = accessFor(this.#session, 'chat:write', 'send chat');
    return access.allowed ? null : access;
  });
  /** Why the input is disabled, or null. */
  readonly disabledReason: string | null = $derived.by(() => {
    if (this.#cutOff()) {
      return `${NOT_RUNNING}.`;
    }
    if (!this.#session.signedIn) {
      return 'Sign in with Kick to chat.';
    }
    return this.missingPermission?.allowed === false ? this.missingPermission.text : null;
  });
  readonly canSend = $derived(
    this.disabledReason === null && !this.#sending && this.content.trim().length > 0 && !this.overLimit,
  );

  /** Names offered for the @word at the caret, most recent chatter first; empty when not in one. */
  readonly suggestions: string[] = $derived.by(() => {
    const query = mentionAt(this.content, this.caret);
    return query ? suggestMentions(recentNames(this.#chatters()), query.prefix) : [];
  });

  constructor(
    api: PanelApi,
    session: SessionState,
    chatters: () => readonly { sender: { username: string } }[] = () => [],
    cutOff: () => boolean = () => false,
  ) {
    this.#api = api;
    this.#session = session;
    this.#chatters = chatters;
    this.#cutOff = cutOff;
  }

  /** Completes the @word at the caret with a suggestion; returns where the caret goes, or null. */
  complete(name = this.suggestions[this.suggestionIndex]): number | null {
    const query = mentionAt(this.content, this.caret);
    if (!query || name === undefined) {
      return null;
    }
    const next = applyMention(this.content, query, name);
    this.content = next.content;
    this.caret = next.caret;
    this.suggestionIndex = 0;
    return next.caret;
  }

  /** ↑: the previous sent message replaces the draft (kept for ↓). */
  older(): boolean {
    const text = this.#history.older(this.content);
    if (text === null) {
      return false;
    }
    this.content = text;
    return true;
  }

  /** ↓: the next newer sent message, then the draft. */
  newer(): boolean {
    const text = this.#history.newer();
    if (text === null) {
      return false;
    }
    this.content = text;
    return true;
  }

  get replyTo(): ChatMessageView | null {
    return this.#replyTo;
  }
  get sending(): boolean {
    return this.#sending;
  }
  get error(): ShownError | null {
    return this.#error;
  }
  get max(): number {
    return LIMITS.chatContentMax;
  }

  /** "Sign in again", asking for the missing permission as well as those already granted. */
  allow(scope: KickScope): Promise<void> {
    return this.#session.addScope(scope);
  }

  setReplyTo(message: ChatMessageView | null): void {
    this.#replyTo = message;
  }

  /** Sends the draft; clears it on success, keeps it (with the reason) on failure. */
  async send(): Promise<boolean> {
    if (!this.canSend) {
      return false;
    }
    this.#sending = true;
    this.#error = null;
    const content = this.content.trim();
    const result = await this.#api.chat.send({
      content,
      as: this.as,
      ...(this.#replyTo ? { replyToMessageId: this.#replyTo.messageId } : {}),
    });
    this.#sending = false;
    if (!result.ok) {
      // The link dropped under the send: the line above the input already says why; this says what became of it.
      this.#error =
        result.error.code === 'AppUnreachable'
          ? plainError('Not sent: Greenroom stopped. Your message is kept; send it again once Greenroom is back.')
          : explainError(result.error);
      return false;
    }
    if (!result.value.is_sent) {
      this.#error = plainError('Kick did not send the message (it may have been held by chat settings).');
      return false;
    }
    this.#history.add(content);
    this.content = '';
    this.#replyTo = null;
    return true;
  }

  /** Its cause is gone (the link is back, or a new sign-in): the draft stays, the error goes. */
  clearError(): void {
    this.#error = null;
  }

  reset(): void {
    this.content = '';
    this.as = 'user';
    this.#replyTo = null;
    this.#sending = false;
    this.#error = null;
  }
}

/**
 * Timeout, ban, unban and delete through the Kick client, for the signed-in broadcaster's channel. Kick
 * sends no event for a deleted message and none for an unban ([design notes](../../docs/design-notes.md#what-streamers-and-moderators-ask-for) #5), so every action, done or
 * failed, goes into Greenroom's own bounded mod log and out to the panel as `mod:action`. The user card
 * joins that log with the user's recent chat. With a store the log is kept on disk and read back at start,
 * so a restart loses none of it.
 */
import { AppError, isAppError } from '../../shared/errors';
import type { AutomodVerdict } from '../../shared/automod';
import type { AutomodNote, ChatMessageView, ModAction, ModActionKind, UserCardView } from '../../shared/views';
import type { Clock } from '../core/clock';
import { createUlid } from '../core/ids';
import type { KickClient } from '../kick/kick-client';
import type { ChatHistory } from './chat-history';
import type { Chatters } from './chatters';
import type { ModLogStore } from './mod-log-file';

/** The Kick client operations moderation uses. */
export type ModerationClient = Pick<KickClient, 'banUser' | 'unbanUser' | 'deleteChatMessage' | 'fetchUser'>;

/** Actions kept in the mod log. */
export const DEFAULT_MOD_LOG_SIZE = 500;

/** What moderation is built from. */
export interface ModerationDeps {
  client: ModerationClient;
  /** The broadcaster whose channel is moderated (the signed-in user); rejects when signed out. */
  broadcasterUserId: () => Promise<number>;
  chat: ChatHistory;
  clock: Clock;
  /** Every recorded action, done or failed. */
  onAction: (action: ModAction) => void;
  /** A message deleted through Greenroom. */
  onDeleted: (messageId: string) => void;
  log: (line: string) => void;
  logSize?: number;
  /** Where the log is kept across restarts; in memory only without one. */
  store?: ModLogStore;
  /** First seen and message count for the user card (electron/services/chatters.ts). */
  chatters?: Pick<Chatters, 'stats'>;
  /** The private mod notes, kept in the settings (docs/chat-tools.md). */
  notes?: ModNotes;
}

/** Private notes on chatters, by user id. */
export interface ModNotes {
  get(userId: number): string;
  /** An empty note removes it; throws an AppError naming the limit for one too long. */
  set(userId: number, note: string): void;
}

interface Target {
  userId: number | null;
  username: string | null;
}

/** Moderation actions, the mod log and the user card. */
export class Moderation {
  readonly #deps: ModerationDeps;
  readonly #logSize: number;
  /** Oldest first. */
  #actions: ModAction[] = [];

  constructor(deps: ModerationDeps) {
    this.#deps = deps;
    this.#logSize = deps.logSize ?? DEFAULT_MOD_LOG_SIZE;
    this.#actions = (deps.store?.load() ?? []).slice(-this.#logSize);
  }

  /** A timeout of 1–10080 minutes (Kick's ban with a duration). */
  timeout(input: { userId: number; minutes: number; reason?: string }): Promise<ModAction> {
    return this.#run('timeout', this.#target(input.userId), { minutes: input.minutes, reason: input.reason }, (id) =>
      this.#deps.client.banUser({
        broadcasterUserId: id,
        userId: input.userId,
        duration: input.minutes,
        reason: input.reason,
      }),
    );
  }

  ban(input: { userId: number; reason?: string }): Promise<ModAction> {
    return this.#run('ban', this.#target(input.userId), { reason: input.reason }, (id) =>
      this.#deps.client.banUser({ broadcasterUserId: id, userId: input.userId, reason: input.reason }),
    );
  }

  /** Lifts a ban or a timeout. */
  unban(input: { userId: number }): Promise<ModAction> {
    return this.#run('unban', this.#target(input.userId), {}, (id) =>
      this.#deps.client.unbanUser({ broadcasterUserId: id, userId: input.userId }),
    );
  }

  /** Deletes a chat message; the panel is told with `chat:deleted` since Kick sends no event for it. */
  async deleteMessage(messageId: string): Promise<ModAction> {
    const sender = this.#deps.chat.find(messageId)?.sender;
    const target = { userId: sender?.userId ?? null, username: sender?.username ?? null };
    const action = await this.#run('delete', target, { messageId }, () =>
      this.#deps.client.deleteChatMessage(messageId),
    );
    this.#deps.chat.markDeleted(messageId);
    this.#deps.onDeleted(messageId);
    return action;
  }

  /**
   * Carries out what auto-moderation decided about a message it already kept out of chat (docs/automod.md):
   * a dry run's flag and a hide are only logged; a delete, a timeout or a ban goes to Kick like the
   * streamer's own, logged with the rule. A failure is logged too, never thrown: nobody is waiting on it.
   */
  async automod(message: ChatMessageView, verdict: AutomodVerdict): Promise<ModAction | null> {
    const target = { userId: message.sender.userId, username: message.sender.username };
    const note: AutomodNote = { rule: verdict.rule, reason: verdict.reason, content: message.content.slice(0, 500) };
    const reason = `Automod: ${verdict.reason}`.slice(0, 100);
    const { kind, minutes } = verdict.action;
    const userId = message.sender.userId;
    try {
      if (verdict.dryRun || kind === 'hide' || (kind !== 'delete' && userId === null)) {
        const logged: ModAction = {
          id: createUlid(this.#deps.clock.now()),
          kind: verdict.dryRun ? 'flag' : 'hide',
          atMs: this.#deps.clock.now(),
          targetUserId: target.userId,
          targetUsername: target.username,
          messageId: message.messageId,
          reason,
          ok: true,
          auto: verdict.dryRun ? { ...note, wouldDo: kind } : note,
        };
        await this.#record(logged);
        return logged;
      }
      const extra = { reason, messageId: message.messageId, auto: note };
      if (kind === 'delete') {
        return await this.#run('delete', target, extra, () => this.#deps.client.deleteChatMessage(message.messageId));
      }
      return await this.#run(kind, target, kind === 'timeout' ? { ...extra, minutes } : extra, (id) =>
        this.#deps.client.banUser({
          broadcasterUserId: id,
          userId: userId!,
          duration: kind === 'timeout' ? minutes : undefined,
          reason,
        }),
      );
    } catch (error) {
      this.#deps.log(
        `automod: ${kind} for ${verdict.rule} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return null;
    }
  }

  /**
   * Marks the messages this log says were deleted, once chat is restored from the journal: the journal holds
   * the messages as Kick sent them, and only this log knows Greenroom deleted some. Returns how many it marked.
   */
  reapplyDeletions(): number {
    let marked = 0;
    for (const action of this.#actions) {
      // Auto-moderation kept its messages out of chat whatever it then did (hide, delete, timeout, ban).
      const removed = action.kind === 'delete' || (action.auto !== undefined && action.kind !== 'flag');
      if (removed && action.ok && action.messageId && this.#deps.chat.markDeleted(action.messageId)) {
        marked++;
      }
    }
    return marked;
  }

  /** The mod log, oldest first. */
  actions(): ModAction[] {
    return [...this.#actions];
  }

  /** Resolves once every recorded action is written to the store. */
  flush(): Promise<void> {
    return this.#deps.store?.flush() ?? Promise.resolve();
  }

  /** The user's recent messages and the actions taken on them. */
  async userCard(userId: number): Promise<UserCardView> {
    const actions = this.#actions.filter((a) => a.targetUserId === userId);
    const username =
      this.#deps.chat.usernameOf(userId) ??
      actions.findLast((a) => a.targetUsername !== null)?.targetUsername ??
      (await this.#lookUpName(userId)) ??
      `user ${userId}`;
    return {
      userId,
      username,
      recentMessages: this.#deps.chat.recentFor(userId),
      actions,
      chatter: this.#deps.chatters?.stats(userId) ?? null,
      note: this.#deps.notes?.get(userId) ?? '',
    };
  }

  /** Keeps (or with '' removes) the private note on a chatter and returns their card as it is now. */
  async setNote(userId: number, note: string): Promise<UserCardView> {
    if (!this.#deps.notes) {
      throw new AppError('Internal', 'mod notes are not available in this build');
    }
    this.#deps.notes.set(userId, note.trim());
    return this.userCard(userId);
  }

  #target(userId: number): Target {
    return {
      userId,
      username:
        this.#deps.chat.usernameOf(userId) ??
        this.#actions.findLast((a) => a.targetUserId === userId && a.targetUsername !== null)?.targetUsername ??
        null,
    };
  }

  /** Runs one action and records it either way; a failure is recorded, announced, then rethrown. */
  async #run(
    kind: ModActionKind,
    target: Target,
    extra: Pick<ModAction, 'minutes' | 'reason' | 'messageId' | 'auto'>,
    act: (broadcasterUserId: number) => Promise<void>,
  ): Promise<ModAction> {
    const base: ModAction = {
      id: createUlid(this.#deps.clock.now()),
      kind,
      atMs: this.#deps.clock.now(),
      targetUserId: target.userId,
      targetUsername: target.username,
      ok: true,
    };
    for (const [key, value] of Object.entries(extra)) {
      if (value !== undefined && value !== '') {
        (base as unknown as Record<string, unknown>)[key] = value;
      }
    }
    try {
      await act(await this.#deps.broadcasterUserId());
    } catch (error) {
      // Expected failures say why in the log; anything else is a bug whose details stay out of the panel.
      await this.#record(
        isAppError(error)
          ? { ...base, ok: false, error: error.message, errorCode: error.code }
          : { ...base, ok: false, error: 'Something went wrong', errorCode: 'Internal' },
      );
      throw error;
    }
    await this.#record(base);
    return base;
  }

  /** Keeps the action (on disk first, with a store), then announces it. */
  async #record(action: ModAction): Promise<void> {
    this.#actions.push(action);
    if (this.#actions.length > this.#logSize) {
      this.#actions.splice(0, this.#actions.length - this.#logSize);
    }
    await this.#deps.store?.append(action);
    try {
      this.#deps.onAction(action);
    } catch (error) {
      this.#deps.log(`moderation: a mod:action listener failed: ${String(error)}`);
    }
  }

  async #lookUpName(userId: number): Promise<string | null> {
    try {
      return (await this.#deps.client.fetchUser(userId))?.name ?? null;
    } catch {
      // The card still opens without a name (a missing user:read scope, a network blip).
      return null;
    }
  }
}

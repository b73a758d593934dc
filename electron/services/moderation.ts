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
import { createUlid } from '../core/ids';
import { DEFAULT_MOD_LOG_SIZE, type ModerationDeps, type Target } from './moderation-deps';

export { DEFAULT_MOD_LOG_SIZE, type ModerationClient, type ModerationDeps, type ModNotes } from './moderation-deps';

/** Moderation actions, the mod log and the user card. */
export class Moderation {
  readonly #deps: ModerationDeps;
  readonly #logSize: number;
  /** Oldest first. */
  #actions: ModAction[] = [];
  /** Bans, timeouts and unbans sent to Kick and not answered yet, by `<user id>:<kind>` (see `underWay`). */
  readonly #underWay = new Map<string, number>();

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
        const logged = this.#entry(verdict.dryRun ? 'flag' : 'hide', target, {
          messageId: message.messageId,
          reason,
          auto: verdict.dryRun ? { ...note, wouldDo: kind } : note,
        });
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
    const shown = new Set(this.#actions.filter((a) => a.kind === 'show').map((a) => a.messageId));
    for (const action of this.#actions) {
      // Auto-moderation kept its messages out of chat whatever it then did (hide, delete, timeout, ban),
      // unless its Undo showed the message again.
      const removed =
        action.kind === 'delete' ||
        (action.auto !== undefined && action.kind !== 'flag' && !shown.has(action.messageId));
      if (removed && action.ok && action.messageId && this.#deps.chat.markDeleted(action.messageId)) {
        marked++;
      }
    }
    return marked;
  }

  /**
   * Undo for an automatic action (docs/automod.md): a timeout or ban is lifted, and the message it kept out of
   * chat is shown again (a `show` entry, so it stays shown after a restart). A delete cannot be undone: Kick
   * has no way to bring a deleted message back. Returns the actions recorded.
   */
  async undoAutomatic(actionId: string): Promise<ModAction[]> {
    const action = this.#actions.find((a) => a.id === actionId);
    if (!action?.auto || !action.ok || action.kind === 'flag' || action.kind === 'delete') {
      throw new AppError(
        'InvalidArgument',
        'actionId: only a hide, timeout or ban made by auto-moderation can be undone',
      );
    }
    const done: ModAction[] = [];
    if ((action.kind === 'timeout' || action.kind === 'ban') && action.targetUserId !== null) {
      done.push(await this.unban({ userId: action.targetUserId }));
    }
    if (action.messageId && this.#deps.chat.markDeleted(action.messageId, false)) {
      const target = { userId: action.targetUserId, username: action.targetUsername };
      const shown = this.#entry('show', target, { messageId: action.messageId });
      await this.#record(shown);
      this.#deps.onShown?.(action.messageId);
      done.push(shown);
    }
    return done;
  }

  /**
   * Whether a ban, timeout or unban (`kind`) of this user is on its way to Kick through Greenroom: Kick's own word
   * of it (the live socket, the ban webhook) can come before Kick's answer, and is then a copy, not a second action.
   */
  underWay(userId: number, kind: 'ban' | 'timeout' | 'unban'): boolean {
    return this.#underWay.has(`${userId}:${kind}`);
  }

  /**
   * Records a ban, timeout or unban a moderator took on Kick, not through Greenroom
   * ([design notes](../../docs/design-notes.md#other-moderators-bans-from-the-live-socket)). The caller has
   * already made sure it is not one the log holds (`electron/app/live-moderation.ts`).
   */
  async recordElsewhere(input: {
    kind: 'ban' | 'timeout' | 'unban';
    userId: number;
    username: string | null;
    moderator: string | null;
    atMs: number;
    minutes?: number;
    reason?: string;
  }): Promise<ModAction> {
    const target = this.#target(input.userId);
    const action = this.#entry(
      input.kind,
      { userId: input.userId, username: input.username ?? target.username },
      {
        elsewhere: { moderator: input.moderator },
      },
    );
    action.atMs = input.atMs;
    if (input.minutes !== undefined) {
      action.minutes = input.minutes;
    }
    if (input.reason) {
      action.reason = input.reason;
    }
    await this.#record(action);
    return action;
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
    const base = this.#entry(kind, target);
    for (const [key, value] of Object.entries(extra)) {
      if (value !== undefined && value !== '') {
        (base as unknown as Record<string, unknown>)[key] = value;
      }
    }
    const underWay = kind === 'delete' || target.userId === null ? null : `${target.userId}:${kind}`;
    if (underWay !== null) {
      this.#underWay.set(underWay, (this.#underWay.get(underWay) ?? 0) + 1);
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
    } finally {
      if (underWay !== null) {
        const left = (this.#underWay.get(underWay) ?? 1) - 1;
        if (left > 0) {
          this.#underWay.set(underWay, left);
        } else {
          this.#underWay.delete(underWay);
        }
      }
    }
    await this.#record(base);
    return base;
  }

  /** A new, successful log entry about `target`. */
  #entry(kind: ModActionKind, target: Target, extra: Partial<ModAction> = {}): ModAction {
    const atMs = this.#deps.clock.now();
    return {
      id: createUlid(atMs),
      kind,
      atMs,
      targetUserId: target.userId,
      targetUsername: target.username,
      ok: true,
      ...extra,
    };
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

/**
 * Moderation: delete, timeout (presets and custom 1–10080 min), ban with a reason (one confirm), unban, and
 * Greenroom's own mod log (Kick sends no event for deletions, [design notes](../../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 5). Each action shows
 * "pending" where it was started and then its result in the same place; a ban offers undo (unban). An
 * unban, from here, from the undo bar or from another panel, clears the "Banned"/"Timed out" it lifts.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { ErrorCode, Result } from '../../../../shared/errors';
import type { PanelApi } from '../../../../shared/panel-api';
import { LIMITS } from '../../../../shared/limits';
import type { ChatMessageView, ModAction } from '../../../../shared/views';
import { explainError, explainModFailure, type ShownError } from '../error-text';
import { formatMinutes } from '../format';
import type { ChatState } from './chat.svelte';
import { endedBy, type GoneCause } from './held-error.svelte';

/** Who an action is aimed at. */
export interface ModTarget {
  userId: number;
  username: string;
}

/** The state of one action, shown where it was started (`origin`: a message id or `card:<userId>`). */
export interface ModStatus {
  state: 'pending' | 'ok' | 'failed';
  text: string;
  /** The technical detail of a failure, behind "Details". */
  detail?: string | null;
  /** The code of a failure from main, so it can go once its cause has (held-error.svelte.ts). */
  code?: ErrorCode;
}

export interface BanRequest extends ModTarget {
  origin: string;
}

/** The timeout presets, in minutes: 1 m, 5 m, 10 m, 1 h, 1 d, 1 w. */
export const TIMEOUT_PRESETS = [1, 5, 10, 60, 1440, 10080] as const;

const LOG_MAX = 500;

/** Null when `minutes` is a whole number Kick accepts, else the reason. */
export function validateTimeoutMinutes(minutes: number | null): string | null {
  if (minutes === null || !Number.isInteger(minutes)) {
    return 'Minutes: enter a whole number.';
  }
  if (minutes < LIMITS.banDurationMinutesMin || minutes > LIMITS.banDurationMinutesMax) {
    return `Minutes: between ${LIMITS.banDurationMinutesMin} and ${LIMITS.banDurationMinutesMax} (one week).`;
  }
  return null;
}

/** Null when the ban reason fits, else the reason. */
export function validateBanReason(reason: string): string | null {
  return reason.length > LIMITS.banReasonMax ? `Reason: at most ${LIMITS.banReasonMax} characters.` : null;
}

/** Actions, their in-place status, the ban confirm and undo. */
export class ModerationState {
  #api: PanelApi;
  #chat: ChatState;
  #log = $state.raw<ModAction[]>([]);
  #status = new SvelteMap<string, ModStatus>();
  #confirm = $state.raw<BanRequest | null>(null);
  #undo = $state.raw<ModTarget | null>(null);
  #logError = $state.raw<ShownError | null>(null);
  /** Which user each shown ban or timeout result is about, so an unban can clear it. */
  // Bookkeeping only (the statuses it clears are reactive), so a plain map.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #restricted = new Map<string, number>();

  constructor(api: PanelApi, chat: ChatState) {
    this.#api = api;
    this.#chat = chat;
  }

  /** Newest first. */
  get log(): readonly ModAction[] {
    return this.#log;
  }
  get logError(): ShownError | null {
    return this.#logError;
  }
  /** The ban waiting for its one confirm. */
  get confirming(): BanRequest | null {
    return this.#confirm;
  }
  /** The last successful ban, offered for undo. */
  get undoable(): ModTarget | null {
    return this.#undo;
  }

  statusFor(origin: string): ModStatus | undefined {
    return this.#status.get(origin);
  }

  actionsFor(userId: number): ModAction[] {
    return this.#log.filter((a) => a.targetUserId === userId);
  }

  async loadLog(): Promise<void> {
    const result = await this.#api.mod.log();
    if (!result.ok) {
      this.#logError = explainError(result.error);
      return;
    }
    this.#logError = null;
    for (const action of [...result.value].sort((a, b) => a.atMs - b.atMs)) {
      this.record(action);
    }
  }

  /** Adds an action to the log (from a result or `mod:action`); the same id is kept once. */
  record(action: ModAction): void {
    const rest = this.#log.filter((a) => a.id !== action.id);
    this.#log = [action, ...rest].sort((a, b) => b.atMs - a.atMs).slice(0, LOG_MAX);
    if (action.kind === 'unban' && action.ok && action.targetUserId !== null) {
      this.#lifted(action.targetUserId);
    }
  }

  /** The user is no longer banned or timed out: their rows stop saying so, and there is nothing to undo. */
  #lifted(userId: number): void {
    for (const [origin, target] of this.#restricted) {
      if (target === userId) {
        this.#status.delete(origin);
        this.#restricted.delete(origin);
      }
    }
    if (this.#undo?.userId === userId) {
      this.#undo = null;
    }
  }

  async deleteMessage(message: ChatMessageView, origin = message.messageId): Promise<void> {
    await this.#run(origin, `Deleting…`, 'Deleted', 'Delete failed', () =>
      this.#api.chat.delete({ messageId: message.messageId }),
    );
    if (this.#status.get(origin)?.state === 'ok') {
      this.#chat.markDeleted(message.messageId);
    }
  }

  async timeout(target: ModTarget, minutes: number, origin: string, reason?: string): Promise<void> {
    const invalid = validateTimeoutMinutes(minutes) ?? (reason ? validateBanReason(reason) : null);
    if (invalid) {
      this.#status.set(origin, { state: 'failed', text: invalid });
      return;
    }
    const span = formatMinutes(minutes);
    await this.#run(origin, `Timing out ${target.username} for ${span}…`, `Timed out ${span}`, 'Timeout failed', () =>
      this.#api.mod.timeout({ userId: target.userId, minutes, ...(reason ? { reason } : {}) }),
    );
    if (this.#status.get(origin)?.state === 'ok') {
      this.#restricted.set(origin, target.userId);
    }
  }

  /** Asks for the one confirm (with an optional reason) before banning. */
  requestBan(target: ModTarget, origin: string): void {
    this.#confirm = { ...target, origin };
  }

  cancelBan(): void {
    this.#confirm = null;
  }

  /** Bans the user waiting for confirmation. */
  async confirmBan(reason: string): Promise<void> {
    const request = this.#confirm;
    if (!request) {
      return;
    }
    const invalid = validateBanReason(reason);
    if (invalid) {
      this.#status.set(request.origin, { state: 'failed', text: invalid });
      return;
    }
    this.#confirm = null;
    const trimmed = reason.trim();
    await this.#run(request.origin, `Banning ${request.username}…`, 'Banned', 'Ban failed', () =>
      this.#api.mod.ban({ userId: request.userId, ...(trimmed ? { reason: trimmed } : {}) }),
    );
    if (this.#status.get(request.origin)?.state === 'ok') {
      this.#restricted.set(request.origin, request.userId);
      this.#undo = { userId: request.userId, username: request.username };
    }
  }

  async unban(target: ModTarget, origin: string): Promise<void> {
    await this.#run(origin, `Unbanning ${target.username}…`, 'Unbanned', 'Unban failed', () =>
      this.#api.mod.unban({ userId: target.userId }),
    );
    if (this.#undo?.userId === target.userId && this.#status.get(origin)?.state === 'ok') {
      this.#undo = null;
    }
  }

  /**
   * Undo for an automatic action in the mod log: main lifts a timeout or ban and shows the message again.
   * Its status shows under that log entry (`auto:<id>`).
   */
  async undoAutomatic(action: ModAction): Promise<void> {
    await this.#run(`auto:${action.id}`, 'Undoing…', 'Undone', 'Undo failed', async () => {
      const result = await this.#api.mod.undoAuto({ actionId: action.id });
      return result.ok ? { ok: true, value: null } : result;
    });
  }

  /**
   * The ids among `actions` that can still be undone (automatic, not a delete or a flag, not undone yet), in one
   * pass over the log: the mod log asks for all its rows at once, since asking row by row cost rows × log length
   * on every automatic action in a raid.
   */
  undoableAmong(actions: readonly ModAction[]): Set<string> {
    // When each message was last shown again (an undone hide, timeout or ban). A local answer, not state.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const shownAt = new Map<string | undefined, number>();
    for (const a of this.#log) {
      if (a.ok && a.kind === 'show') {
        shownAt.set(a.messageId, Math.max(a.atMs, shownAt.get(a.messageId) ?? a.atMs));
      }
    }
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const ids = new Set<string>();
    for (const a of actions) {
      if (!a.auto || !a.ok || a.kind === 'flag' || a.kind === 'delete') {
        continue;
      }
      const shown = shownAt.get(a.messageId);
      if (shown === undefined || shown < a.atMs) {
        ids.add(a.id);
      }
    }
    return ids;
  }

  /** Undo for the last ban. */
  async undoBan(): Promise<void> {
    const target = this.#undo;
    if (target) {
      await this.unban(target, `undo:${target.userId}`);
    }
  }

  dismissUndo(): void {
    this.#undo = null;
  }

  /** A failed action's line whose cause `cause` ended goes from where it was started (held-error.svelte.ts). */
  clearIfEnded(cause: GoneCause): void {
    for (const [origin, status] of this.#status) {
      if (status.state === 'failed' && endedBy(status.code ?? null, cause)) {
        this.#status.delete(origin);
      }
    }
  }

  reset(): void {
    this.#log = [];
    this.#status.clear();
    this.#confirm = null;
    this.#undo = null;
    this.#logError = null;
    this.#restricted.clear();
  }

  async #run(
    origin: string,
    pending: string,
    done: string,
    failed: string,
    call: () => Promise<Result<ModAction | null>>,
  ): Promise<void> {
    this.#status.set(origin, { state: 'pending', text: pending });
    const result = await call();
    if (!result.ok) {
      const shown = explainError(result.error);
      this.#status.set(origin, {
        state: 'failed',
        text: `${failed}: ${shown.text}`,
        detail: shown.detail,
        code: result.error.code,
      });
      return;
    }
    // Recorded first: an unban clears the rows it lifts, and this one's own result must survive that.
    if (result.value) {
      this.record(result.value);
      if (!result.value.ok) {
        const shown = explainModFailure(result.value);
        this.#status.set(origin, { state: 'failed', text: `${failed}: ${shown.text}`, detail: shown.detail });
        return;
      }
    }
    this.#status.set(origin, { state: 'ok', text: done });
  }
}

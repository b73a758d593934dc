/**
 * The Mod log tab's filters ([automod](../../../docs/automod.md#the-mod-log-tab)): who acted (auto-moderation or a
 * person through Greenroom), which rule, which action, which chatter, and only what can still be undone. They
 * work on the log main sent, in the panel; main's log and its file stay as they are.
 */
import type { AutomodRule } from '../../../shared/automod';
import type { ModAction, ModActionKind } from '../../../shared/views';

/** The rules in the streamer's words, as the Auto-moderation editor names them. */
export const RULE_LABELS: Record<AutomodRule, string> = {
  'blocked-term': 'Blocked term',
  link: 'Links',
  caps: 'Capitals',
  emotes: 'Emotes',
  'repeated-chars': 'Repeated letters',
  'repeated-message': 'Same message',
  rate: 'Too fast',
};

/** The actions in the streamer's words, in the order the "What" filter lists them. */
export const KIND_LABELS: Record<ModActionKind, string> = {
  delete: 'Delete',
  hide: 'Hide',
  timeout: 'Timeout',
  ban: 'Ban',
  unban: 'Unban',
  show: 'Shown again',
  flag: 'Dry run',
};

/**
 * Who took an action: auto-moderation, a person through Greenroom (the signed-in account), or a moderator on Kick
 * itself (seen on Kick's live socket or in its ban webhook).
 */
export type ModLogWho = 'anyone' | 'automod' | 'person' | 'kick';

export interface ModLogFilter {
  who: ModLogWho;
  rule: AutomodRule | 'any';
  kind: ModActionKind | 'any';
  /** Part of the chatter's name, any case; '' for everyone. */
  chatter: string;
  /** Only actions that still have Undo. */
  undoable: boolean;
}

export const NO_FILTER: ModLogFilter = { who: 'anyone', rule: 'any', kind: 'any', chatter: '', undoable: false };

/** True when `filter` narrows the log at all. */
export function isFiltering(filter: ModLogFilter): boolean {
  return (
    filter.who !== NO_FILTER.who ||
    filter.rule !== NO_FILTER.rule ||
    filter.kind !== NO_FILTER.kind ||
    filter.chatter.trim() !== '' ||
    filter.undoable
  );
}

/** The actions `filter` lets through, in the order given. A rule picks auto-moderation's actions only. */
export function filterModLog(
  actions: readonly ModAction[],
  filter: ModLogFilter,
  undoable: ReadonlySet<string>,
): ModAction[] {
  const chatter = filter.chatter.trim().toLowerCase();
  return actions.filter(
    (a) =>
      (filter.who === 'anyone' || filter.who === whoOf(a)) &&
      (filter.rule === 'any' || a.auto?.rule === filter.rule) &&
      (filter.kind === 'any' || a.kind === filter.kind) &&
      (chatter === '' || (a.targetUsername ?? '').toLowerCase().includes(chatter)) &&
      (!filter.undoable || undoable.has(a.id)),
  );
}

function whoOf(a: ModAction): Exclude<ModLogWho, 'anyone'> {
  return a.auto ? 'automod' : a.elsewhere ? 'kick' : 'person';
}

/**
 * The ids of a person's bans and timeouts that are still in force at `nowMs`, each undone by an unban: the
 * user's latest ban, timeout or unban (by anyone) is this one, and a timeout has not run out. Auto-moderation's
 * own have their Undo from the moderation state (`undoableAmong`), which also shows their message again.
 */
export function liftableByPerson(log: readonly ModAction[], nowMs: number): Set<string> {
  // The latest ban, timeout or unban that took effect, per user.
  const latest = new Map<number, ModAction>();
  for (const a of log) {
    const restricts = a.kind === 'ban' || a.kind === 'timeout' || a.kind === 'unban';
    if (!restricts || !a.ok || a.targetUserId === null) {
      continue;
    }
    const seen = latest.get(a.targetUserId);
    // Ids are ULIDs, in time order: they settle two actions in the same millisecond.
    if (!seen || seen.atMs < a.atMs || (seen.atMs === a.atMs && seen.id < a.id)) {
      latest.set(a.targetUserId, a);
    }
  }
  const ids = new Set<string>();
  for (const a of latest.values()) {
    const running = a.kind === 'ban' || (a.kind === 'timeout' && a.atMs + (a.minutes ?? 0) * 60_000 > nowMs);
    if (!a.auto && running) {
      ids.add(a.id);
    }
  }
  return ids;
}

/** Whether a person is banned or timed out now, as the user card says it. */
export type Standing = { kind: 'banned' } | { kind: 'timed-out'; untilMs: number | null } | null;

/**
 * A person's standing at `nowMs` from their entries in the mod log (`log`, theirs only): their latest ban, timeout
 * or unban, by anyone, through Greenroom or on Kick ([design notes](../../../docs/design-notes.md#other-moderators-bans-from-the-live-socket)).
 * A timeout Kick gave no length for stays "timed out" until an unban says otherwise.
 */
export function standingOf(log: readonly ModAction[], nowMs: number): Standing {
  let latest: ModAction | null = null;
  for (const a of log) {
    if (!a.ok || (a.kind !== 'ban' && a.kind !== 'timeout' && a.kind !== 'unban')) {
      continue;
    }
    if (!latest || latest.atMs < a.atMs || (latest.atMs === a.atMs && latest.id < a.id)) {
      latest = a;
    }
  }
  if (latest?.kind === 'ban') {
    return { kind: 'banned' };
  }
  if (latest?.kind !== 'timeout') {
    return null;
  }
  if (latest.minutes === undefined) {
    return { kind: 'timed-out', untilMs: null };
  }
  const untilMs = latest.atMs + latest.minutes * 60_000;
  return untilMs > nowMs ? { kind: 'timed-out', untilMs } : null;
}

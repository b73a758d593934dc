/**
 * Bans, timeouts and unbans by any moderator, in the mod log the moment Kick says so
 * ([design notes](../../docs/design-notes.md#other-moderators-bans-from-the-live-socket)).
 *
 * Kick tells of one ban up to three times: Greenroom's own answer when the streamer (or auto-moderation) banned
 * through Greenroom, the live socket's `UserBannedEvent` at once, and the signed `moderation.banned` webhook,
 * which can come minutes later. Neither Kick copy carries an id the other has, so they are matched by who was
 * banned, the kind (ban, timeout, unban) and Kick's time, within {@link SAME_ACTION_WINDOW_MS}. Each source
 * matches an entry once, so a second ban of the same viewer a moment later is still a second entry. An unban
 * has no webhook: it comes from the socket alone. The viewer's lines stay in chat, as Kick keeps them.
 *
 * The socket is unsigned, so what it may cost is bounded: it writes at most {@link SOCKET_ENTRIES_BURST} entries
 * at once and {@link SOCKET_ENTRIES_PER_SECOND} a second after that (each is an append and a disk sync, and the
 * mod log keeps only its newest entries); a ban beyond that is counted and logged, and its signed webhook still
 * brings it. What each source has matched is kept for the entries the mod log still holds, and at most as many again.
 */
import type { LiveEvent, LiveUser } from '../../shared/kick/live-events';
import { LIMITS } from '../../shared/limits';
import type { ModAction } from '../../shared/views';
import type { Clock } from '../core/clock';
import type { KickEvent } from '../webhooks/events/types';

/** How far apart Kick's two copies of one ban (or Greenroom's own entry) may be in time and still be one. */
export const SAME_ACTION_WINDOW_MS = 120_000;

/** Mod-log entries the live socket may write at once ([design notes](../../docs/design-notes.md#other-moderators-bans-from-the-live-socket)). */
export const SOCKET_ENTRIES_BURST = 30;
/** Mod-log entries the live socket may write a second once its burst is spent. */
export const SOCKET_ENTRIES_PER_SECOND = 2;

/** A flood of socket bans has ended once none was refused for this long; then its count is logged. */
const FLOOD_QUIET_MS = 60_000;

/** Longest moderator or viewer name kept from Kick's copies; Kick's own names are at most 25 characters. */
const NAME_MAX = 100;

type Source = 'live-socket' | 'webhook';

/** One ban, timeout or unban as a Kick copy tells it. */
export interface KickModeration {
  kind: 'ban' | 'timeout' | 'unban';
  userId: number;
  username: string | null;
  moderator: string | null;
  /** Kick's time for it (the webhook's `created_at`), or when the socket brought it. */
  atMs: number;
  minutes?: number;
  reason?: string;
}

/** What live-moderation needs of the mod log (`electron/services/moderation.ts`). */
export interface LiveModerationDeps {
  clock: Clock;
  moderation: {
    actions(): ModAction[];
    underWay(userId: number, kind: KickModeration['kind']): boolean;
    recordElsewhere(input: KickModeration): Promise<ModAction>;
  };
  log: (line: string) => void;
}

export interface LiveModeration {
  /** A socket event; all but bans and unbans are ignored. */
  onLiveEvent(event: LiveEvent): void;
  /** A signed webhook; all but `moderation.banned` are ignored. */
  onWebhook(event: KickEvent): void;
  /** What it holds and has refused: matched entries per source, and socket entries not written for the rate. */
  stats(): { matched: Record<Source, number>; skipped: number };
}

export function createLiveModeration(deps: LiveModerationDeps): LiveModeration {
  /**
   * The mod-log entries each source has matched, so one source never counts one entry twice; only entries the
   * mod log still holds, since no copy can match one it has dropped.
   */
  const matched: Record<Source, Set<string>> = { 'live-socket': new Set(), webhook: new Set() };
  /** Entries the socket may still write now, refilled at SOCKET_ENTRIES_PER_SECOND up to SOCKET_ENTRIES_BURST. */
  let allowance = SOCKET_ENTRIES_BURST;
  let refilledAtMs = deps.clock.now();
  /** Socket entries not written: in all, and in this flood (none refused for FLOOD_QUIET_MS ends it). */
  let skipped = 0;
  let skippedInFlood = 0;
  let lastSkipAtMs = 0;

  /** Says how many the flood that ended cost, once it has been quiet long enough. */
  const endFlood = (now: number): void => {
    if (skippedInFlood > 0 && now - lastSkipAtMs >= FLOOD_QUIET_MS) {
      deps.log(`live moderation: ${skippedInFlood} bans from Kick's live socket were not written to the mod log`);
      skippedInFlood = 0;
    }
  };

  /** Whether the socket may write one more entry now; a refusal is counted, and a flood logged once. */
  const socketMayWrite = (): boolean => {
    const now = deps.clock.now();
    allowance = Math.min(
      SOCKET_ENTRIES_BURST,
      allowance + (Math.max(0, now - refilledAtMs) * SOCKET_ENTRIES_PER_SECOND) / 1000,
    );
    refilledAtMs = now;
    endFlood(now);
    if (allowance >= 1) {
      allowance -= 1;
      return true;
    }
    skipped += 1;
    skippedInFlood += 1;
    lastSkipAtMs = now;
    if (skippedInFlood === 1) {
      deps.log(
        `live moderation: more bans from Kick's live socket than ${SOCKET_ENTRIES_PER_SECOND} a second; ` +
          "those beyond are not written to the mod log (Kick's webhooks still bring bans and timeouts)",
      );
    }
    return false;
  };

  /**
   * Forgets matches of entries the mod log no longer holds, once a source holds twice as many as the log: a match
   * of a dropped entry is never asked for again (`sameAction` reads only the log), and sweeping at every ban built a
   * set of the whole log each time, which a raid with auto-moderation on did hundreds of times a minute.
   */
  const forgetDropped = (log: readonly ModAction[]): void => {
    const over = Object.values(matched).filter((set) => set.size > 2 * log.length);
    if (over.length === 0) {
      return;
    }
    const kept = new Set(log.map((action) => action.id));
    for (const set of over) {
      for (const id of set) {
        if (!kept.has(id)) {
          set.delete(id);
        }
      }
    }
  };

  const take = (seen: KickModeration, source: Source): void => {
    if (deps.moderation.underWay(seen.userId, seen.kind)) {
      // Greenroom's own action, told by Kick before Kick answered Greenroom: the entry follows with the answer.
      return;
    }
    const log = deps.moderation.actions();
    forgetDropped(log);
    const same = sameAction(log, seen, matched[source]);
    if (same) {
      matched[source].add(same.id);
      return;
    }
    if (source === 'live-socket' && !socketMayWrite()) {
      return;
    }
    deps.moderation.recordElsewhere(seen).then(
      (action) => matched[source].add(action.id),
      (error: unknown) => deps.log(`live moderation: could not keep a ${seen.kind} in the mod log: ${String(error)}`),
    );
  };

  return {
    onLiveEvent(event) {
      const seen = fromSocket(event, deps.clock.now());
      if (seen) {
        take(seen, 'live-socket');
      }
    },
    onWebhook(event) {
      if (event.kind === 'known' && event.type === 'moderation.banned') {
        const seen = fromWebhook(event.payload, event.receivedAtMs);
        if (seen) {
          take(seen, 'webhook');
        }
      }
    },
    stats() {
      return { matched: { 'live-socket': matched['live-socket'].size, webhook: matched.webhook.size }, skipped };
    },
  };
}

/**
 * The entry in `log` that `seen` is a copy of: a successful one of the same kind on the same viewer within
 * {@link SAME_ACTION_WINDOW_MS}, of the same length for a timeout when both say, and not yet matched by this
 * source (`taken`); the nearest in time when several are.
 */
export function sameAction(
  log: readonly ModAction[],
  seen: KickModeration,
  taken: ReadonlySet<string>,
): ModAction | null {
  let best: ModAction | null = null;
  for (const action of log) {
    const fits =
      action.ok &&
      action.kind === seen.kind &&
      action.targetUserId === seen.userId &&
      Math.abs(action.atMs - seen.atMs) <= SAME_ACTION_WINDOW_MS &&
      !taken.has(action.id) &&
      // Kick rounds a timeout's length to whole minutes in one copy and counts it from its own clock in the other.
      (action.minutes === undefined || seen.minutes === undefined || Math.abs(action.minutes - seen.minutes) <= 1);
    if (fits && (!best || Math.abs(action.atMs - seen.atMs) < Math.abs(best.atMs - seen.atMs))) {
      best = action;
    }
  }
  return best;
}

/** A socket ban, timeout or unban in the mod log's terms; null for anything else or a frame naming nobody. */
export function fromSocket(event: LiveEvent, nowMs: number): KickModeration | null {
  if (event.type !== 'user.banned' && event.type !== 'user.unbanned') {
    return null;
  }
  if (!Number.isSafeInteger(event.user.id) || event.user.id <= 0) {
    return null;
  }
  const by = event.type === 'user.banned' ? event.bannedBy : event.unbannedBy;
  const base = { userId: event.user.id, username: nameOf(event.user), moderator: by ? nameOf(by) : null, atMs: nowMs };
  if (event.type === 'user.unbanned') {
    return { ...base, kind: 'unban' };
  }
  if (event.permanent) {
    return { ...base, kind: 'ban' };
  }
  const minutes = timeoutMinutes(event.durationMinutes, event.expiresAt, nowMs);
  return minutes === undefined ? { ...base, kind: 'timeout' } : { ...base, kind: 'timeout', minutes };
}

/** The `moderation.banned` webhook in the mod log's terms, at Kick's own time for it. */
export function fromWebhook(
  payload: Extract<KickEvent, { type: 'moderation.banned' }>['payload'],
  receivedAtMs: number,
): KickModeration | null {
  const userId = payload.banned_user.user_id;
  if (userId === null || !Number.isSafeInteger(userId) || userId <= 0) {
    return null;
  }
  const created = Date.parse(payload.metadata.created_at);
  const atMs = Number.isFinite(created) ? created : receivedAtMs;
  const base: KickModeration = {
    kind: 'ban',
    userId,
    username: clip(payload.banned_user.username),
    moderator: clip(payload.moderator.username),
    atMs,
  };
  const reason = payload.metadata.reason.slice(0, LIMITS.banReasonMax);
  if (reason) {
    base.reason = reason;
  }
  if (payload.metadata.expires_at === null) {
    return base;
  }
  const minutes = timeoutMinutes(null, payload.metadata.expires_at, atMs);
  return minutes === undefined ? { ...base, kind: 'timeout' } : { ...base, kind: 'timeout', minutes };
}

/** A timeout's length in whole minutes within Kick's limits, from its duration or its end; undefined if neither says. */
function timeoutMinutes(duration: number | null, expiresAt: string | null, fromMs: number): number | undefined {
  const inRange = (m: number) =>
    Number.isFinite(m) && m >= LIMITS.banDurationMinutesMin && m <= LIMITS.banDurationMinutesMax;
  if (duration !== null && inRange(Math.round(duration))) {
    return Math.round(duration);
  }
  const endMs = expiresAt === null ? NaN : Date.parse(expiresAt);
  const fromEnd = Math.round((endMs - fromMs) / 60_000);
  return inRange(fromEnd) ? fromEnd : undefined;
}

function nameOf(user: Pick<LiveUser, 'username'>): string | null {
  return clip(user.username);
}

function clip(name: string | null | undefined): string | null {
  return name ? name.slice(0, NAME_MAX) : null;
}

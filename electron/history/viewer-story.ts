/**
 * One viewer's story for the user card ([history](../../docs/history.md#a-viewers-story)): the counts the store
 * keeps for good (`HistoryStore.viewer`), their moderation history, and where Greenroom's knowledge starts, so
 * "followed since" can say "as far as Greenroom saw". A pure query, a handful of indexed reads.
 */
import type { HistoryModerationEntry, HistoryViewerStoryView } from '../../shared/history';
import type { HistoryStore } from './history-store';
import type { SqliteDatabase } from './sqlite-driver';

export type ModerationEntry = HistoryModerationEntry;
/**
 * The story with the viewer's bans and timeouts and `historySinceMs`: the earliest of the first stream Greenroom
 * saw, the oldest chat line it keeps and this viewer's first sighting. A follow before it, or none seen, is one
 * Greenroom could not see.
 */
export type ViewerStoryFull = HistoryViewerStoryView;

export interface ViewerStoryQueries {
  story(userId: number): ViewerStoryFull | null;
}

/** At most this many moderation entries, newest kept: a card lists them, it is not an archive. */
export const MAX_MODERATION_ENTRIES = 100;

export function createViewerStoryQueries(db: SqliteDatabase, store: Pick<HistoryStore, 'viewer'>): ViewerStoryQueries {
  const bans = db.prepare(
    `SELECT at_ms, detail FROM events WHERE user_id = ? AND type = 'moderation.banned'
     ORDER BY at_ms DESC, id DESC LIMIT ${MAX_MODERATION_ENTRIES}`,
  );
  // Both are cheap (a small table, an index's first entry): a card opens in a few milliseconds.
  const since = db.prepare(
    'SELECT min(at) AS at FROM (SELECT min(seen_from_ms) AS at FROM streams UNION ALL SELECT min(at_ms) FROM chat_lines)',
  );
  return {
    story(userId) {
      const viewer = store.viewer(userId);
      if (!viewer) {
        return null;
      }
      const moderation = bans
        .all(userId)
        .reverse()
        .map((r): ModerationEntry => {
          const detail = parseDetail(r.detail);
          const expiresAtMs = typeof detail.expiresAt === 'string' ? Date.parse(detail.expiresAt) : NaN;
          return {
            atMs: Number(r.at_ms),
            kind: Number.isFinite(expiresAtMs) ? 'timeout' : 'ban',
            expiresAtMs: Number.isFinite(expiresAtMs) ? expiresAtMs : null,
            moderator: typeof detail.moderator === 'string' ? detail.moderator : null,
            reason: typeof detail.reason === 'string' ? detail.reason : null,
          };
        });
      const at = since.get()?.at;
      const historySinceMs = Math.min(viewer.firstSeenMs, at == null ? Infinity : Number(at));
      return { ...viewer, moderation, historySinceMs };
    },
  };
}

function parseDetail(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string') {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A search over every viewer the history knows ([history](../../docs/history.md)), not only the chat on screen:
 * part of a name, or a user id. A pure query over `viewers`.
 *
 * The text is matched with `LIKE`, its `%`, `_` and `\` escaped, so what the streamer typed is matched as typed
 * and a `%` cannot turn the search into "everyone". Most recently seen first, at most `limit` viewers.
 */
import type { HistoryViewerHit } from '../../shared/history';
import type { SqliteDatabase } from './sqlite-driver';

export type ViewerHit = HistoryViewerHit;

export interface ViewerSearch {
  search(query: string, limit: number): ViewerHit[];
}

export function createViewerSearch(db: SqliteDatabase): ViewerSearch {
  const byName = db.prepare(
    `SELECT user_id, username, first_seen_ms, last_seen_ms, messages FROM viewers
     WHERE username LIKE ? ESCAPE '\\' OR user_id = ? ORDER BY last_seen_ms DESC, user_id LIMIT ?`,
  );
  return {
    search(query, limit) {
      const text = query.trim();
      if (text === '') {
        return [];
      }
      const id = /^\d{1,15}$/.test(text) ? Number(text) : -1;
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return byName.all(pattern, id, limit).map((r) => ({
        userId: Number(r.user_id),
        username: String(r.username),
        firstSeenMs: Number(r.first_seen_ms),
        lastSeenMs: Number(r.last_seen_ms),
        messages: Number(r.messages),
      }));
    },
  };
}

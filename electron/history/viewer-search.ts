/**
 * A search over every viewer the history knows ([history](../../docs/history.md#finding-a-viewer)), not only the
 * chat on screen: part of a name, or a user id. A pure query over `viewers`.
 *
 * Names are compared folded (Unicode's compatibility form, NFKC, then lower case), so "élo" finds "ÉLODIE" and
 * "anna" finds "ＡＮＮＡ". SQLite's own `LIKE` folds only ASCII letters, so it matches the names that are all
 * ASCII, where its folding is the same; the few names with any other character are folded and matched here.
 * The text is matched with `LIKE`, its `%`, `_` and `\` escaped, so what the streamer typed is matched as typed
 * and a `%` cannot turn the search into "everyone". Control characters are taken out of the text first (the
 * contract refuses them; one kept would end SQLite's pattern early and match far more). Most recently seen
 * first, at most `limit` viewers.
 */
import type { HistoryViewerHit } from '../../shared/history';
import type { SqliteDatabase, SqliteValue } from './sqlite-driver';

export type ViewerHit = HistoryViewerHit;

export interface ViewerSearch {
  search(query: string, limit: number): ViewerHit[];
}

/** A name or a query as the search compares it. */
export const foldName = (text: string): string => text.normalize('NFKC').toLowerCase();

/** Matches a name with a character outside ASCII: its UTF-8 bytes outnumber its characters. */
const NOT_ASCII = 'octet_length(username) > length(username)';

export function createViewerSearch(db: SqliteDatabase): ViewerSearch {
  const columns = 'user_id, username, first_seen_ms, last_seen_ms, messages';
  const asciiByName = db.prepare(
    `SELECT ${columns} FROM viewers
     WHERE (username LIKE ? ESCAPE '\\' AND NOT ${NOT_ASCII}) OR user_id = ?
     ORDER BY last_seen_ms DESC, user_id LIMIT ?`,
  );
  const others = db.prepare(`SELECT ${columns} FROM viewers WHERE ${NOT_ASCII}`);
  return {
    search(query, limit) {
      const text = foldName(query.replace(/\p{Cc}+/gu, '')).trim();
      if (text === '') {
        return [];
      }
      const id = /^\d{1,15}$/.test(text) ? Number(text) : -1;
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const ascii = asciiByName.all(pattern, id, limit);
      const seen = new Set(ascii.map((r) => Number(r.user_id)));
      const folded = others
        .all()
        .filter((r) => !seen.has(Number(r.user_id)) && foldName(String(r.username)).includes(text));
      return [...ascii, ...folded]
        .map(hit)
        .sort((a, b) => b.lastSeenMs - a.lastSeenMs || a.userId - b.userId)
        .slice(0, limit);
    },
  };
}

const hit = (r: Record<string, SqliteValue>): ViewerHit => ({
  userId: Number(r.user_id),
  username: String(r.username),
  firstSeenMs: Number(r.first_seen_ms),
  lastSeenMs: Number(r.last_seen_ms),
  messages: Number(r.messages),
});

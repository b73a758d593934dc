/**
 * A chat line the live socket brought first, and Kick's signed webhook for it after
 * ([history](../../docs/history.md#what-it-keeps)). Both are one line, counted once. The socket is unsigned and
 * the webhook is the record ([design notes](../../docs/design-notes.md#chat-from-the-live-socket-first)): when
 * the signed copy says other words or names another sender, its words and sender replace the socket's in the
 * kept line, and the count moves from the socket's sender to the signed one. A socket line after the signed one
 * changes nothing.
 *
 * The two are matched by Kick's message id: by the line's key, or its key at the seconds around it, since the
 * socket's time for a line can be another second than Kick's (`sameLineKeys`). Runs inside the store's
 * transaction.
 */
import type { HistoryRow } from './history-projector';
import type { SqliteDatabase, SqliteValue } from './sqlite-driver';
import type { StreamFiling } from './stream-filing';

export interface KeptLine {
  id: number;
  key: string;
  atMs: number;
  streamId: number | null;
  userId: number | null;
  username: string | null;
  content: string;
}

export interface SignedLines {
  /** The line kept under the row's key or one of its same-line keys, or null. */
  find(row: HistoryRow): KeptLine | null;
  /**
   * Puts the signed `row` in place of the kept line; true when what a reader sees changed (words or sender).
   * `countSender` adds the signed sender's message (and attendance) when the sender changed.
   */
  replace(kept: KeptLine, row: HistoryRow, countSender: () => void): boolean;
}

export function createSignedLines(db: SqliteDatabase, filing: StreamFiling): SignedLines {
  const sql = {
    byKey: db.prepare('SELECT * FROM chat_lines WHERE key = ?'),
    update: db.prepare(
      'UPDATE chat_lines SET key = ?, at_ms = ?, stream_id = ?, user_id = ?, username = ?, content = ? WHERE id = ?',
    ),
    attended: db.prepare('INSERT OR IGNORE INTO viewer_streams (user_id, stream_id) VALUES (?, ?)'),
    rename: db.prepare('UPDATE viewers SET username = ?2 WHERE user_id = ?1 AND last_seen_ms <= ?3'),
    // The line no longer the socket sender's: one message less, and their first or last sighting read again
    // from what is left when it was this line. A sighting is dated no later than it arrived, so a line the socket
    // dated to the last moment of its second may have been seen up to a second before that.
    uncount: db.prepare(
      `UPDATE viewers SET messages = max(0, messages - 1),
         first_seen_ms = CASE WHEN first_seen_ms BETWEEN ?2 - 999 AND ?2 THEN coalesce((SELECT min(at) FROM (
           SELECT min(at_ms) AS at FROM chat_lines WHERE user_id = ?1
           UNION ALL SELECT min(at_ms) FROM events WHERE user_id = ?1 AND type <> 'moderation.banned')),
           first_seen_ms) ELSE first_seen_ms END,
         last_seen_ms = CASE WHEN last_seen_ms BETWEEN ?2 - 999 AND ?2 THEN coalesce((SELECT max(at) FROM (
           SELECT max(at_ms) AS at FROM chat_lines WHERE user_id = ?1
           UNION ALL SELECT max(at_ms) FROM events WHERE user_id = ?1 AND type <> 'moderation.banned')),
           last_seen_ms) ELSE last_seen_ms END
       WHERE user_id = ?1`,
    ),
    // A sender the socket alone named, with nothing else kept: no viewer at all.
    forgetViewer: db.prepare(
      `DELETE FROM viewers WHERE user_id = ?1 AND messages = 0 AND followed_at_ms IS NULL AND sub_months = 0
       AND gifted_subs = 0 AND kicks = 0 AND NOT EXISTS (SELECT 1 FROM chat_lines WHERE user_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM events WHERE user_id = ?1)`,
    ),
  };

  const toLine = (r: Record<string, SqliteValue>): KeptLine => ({
    id: Number(r.id),
    key: String(r.key),
    atMs: Number(r.at_ms),
    streamId: r.stream_id == null ? null : Number(r.stream_id),
    userId: r.user_id == null ? null : Number(r.user_id),
    username: r.username == null ? null : String(r.username),
    content: String(r.content),
  });

  return {
    find(row) {
      for (const key of [row.key, ...row.sameLineKeys]) {
        const r = sql.byKey.get(key);
        if (r) {
          return toLine(r);
        }
      }
      return null;
    },

    replace(kept, row, countSender) {
      const content = row.text ?? '';
      const same =
        kept.key === row.key &&
        kept.atMs === row.atMs &&
        kept.streamId === row.streamId &&
        kept.userId === row.userId &&
        kept.username === row.username &&
        kept.content === content;
      if (same) {
        return false;
      }
      sql.update.run(row.key, row.atMs, row.streamId, row.userId, row.username, content, kept.id);
      const otherSender = kept.userId !== row.userId;
      if (kept.userId !== null && kept.streamId !== null && (otherSender || kept.streamId !== row.streamId)) {
        filing.forgetAttendance(kept.userId, kept.streamId);
      }
      if (otherSender) {
        if (kept.userId !== null) {
          sql.uncount.run(kept.userId, kept.atMs);
          sql.forgetViewer.run(kept.userId);
        }
        countSender();
      } else if (row.userId !== null) {
        if (row.streamId !== null) {
          sql.attended.run(row.userId, row.streamId);
        }
        if (kept.username !== row.username) {
          // Up to the later of the two times: the socket's copy dated this viewer's sighting to its own time,
          // the end of its whole second, which can be after Kick's signed one.
          sql.rename.run(row.userId, row.username, Math.max(row.atMs, kept.atMs));
        }
      }
      return otherSender || kept.username !== row.username || kept.content !== content;
    },
  };
}

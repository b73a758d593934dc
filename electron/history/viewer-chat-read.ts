/**
 * One viewer's chat lines for their export ([history](../../docs/history.md#one-viewers-export)), read without
 * holding the app: the newest {@link VIEWER_EXPORT_CHAT_MAX} lines at most, in pages that await the next turn of
 * the event loop between them. A viewer with a million lines once took 4.7 s of the main process and an 81 MB file;
 * a ban appeal needs what they said lately, and the file says how many more the history keeps.
 */
import type { ChatLineRow } from './history-store';
import type { SqliteDatabase, SqliteValue } from './sqlite-driver';

/** The most chat lines one viewer's export holds: their newest. */
export const VIEWER_EXPORT_CHAT_MAX = 100_000;
/** Lines read per page, between two yields. */
export const VIEWER_CHAT_PAGE = 10_000;

export interface ViewerChatRead {
  /** The newest lines up to the bound, oldest first. */
  lines: ChatLineRow[];
  /** Every line the history keeps for the viewer when the read began. */
  total: number;
}

export async function readViewerChat(
  db: SqliteDatabase,
  userId: number,
  yieldNow: () => Promise<void>,
  max = VIEWER_EXPORT_CHAT_MAX,
  page = VIEWER_CHAT_PAGE,
): Promise<ViewerChatRead> {
  const total = Number(db.prepare('SELECT count(*) AS n FROM chat_lines WHERE user_id = ?').get(userId)?.n ?? 0);
  // Newest first by (time, id), each page after the last one read: a line written meanwhile is never read twice.
  const first = db.prepare('SELECT * FROM chat_lines WHERE user_id = ? ORDER BY at_ms DESC, id DESC LIMIT ?');
  const next = db.prepare(
    `SELECT * FROM chat_lines WHERE user_id = ? AND (at_ms < ? OR (at_ms = ? AND id < ?))
     ORDER BY at_ms DESC, id DESC LIMIT ?`,
  );
  const newestFirst: ChatLineRow[] = [];
  let last: { atMs: number; id: number } | null = null;
  while (newestFirst.length < max) {
    const limit = Math.min(page, max - newestFirst.length);
    const rows: Record<string, SqliteValue>[] =
      last === null ? first.all(userId, limit) : next.all(userId, last.atMs, last.atMs, last.id, limit);
    for (const r of rows) {
      newestFirst.push({
        key: String(r.key),
        atMs: Number(r.at_ms),
        streamId: r.stream_id === null ? null : Number(r.stream_id),
        userId: r.user_id === null ? null : Number(r.user_id),
        username: r.username === null ? null : String(r.username),
        content: String(r.content),
      });
    }
    if (rows.length < limit || newestFirst.length >= max) {
      break;
    }
    const end: Record<string, SqliteValue> = rows[rows.length - 1]!;
    last = { atMs: Number(end.at_ms), id: Number(end.id) };
    await yieldNow();
  }
  return { lines: newestFirst.reverse(), total: Math.max(total, newestFirst.length) };
}

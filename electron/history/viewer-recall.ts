/**
 * What the chat bot asks the history about one chatter ([chat variables](../../docs/chat-bot.md#chat-variables-from-the-history)):
 * the first follow Greenroom saw, where its knowledge starts, the streams attended, and when the chatter was last
 * seen before a given moment (for "welcome back"). A pure query, a handful of indexed reads; it never writes.
 *
 * "Before a given moment", not "last seen": the store may already hold the very chat line the bot is answering
 * (the journal feeds the store and the bot separately), and a chatter's earlier line in the same stream, before a
 * restart, must count as recent, so a restart does not welcome anyone back twice.
 */
import type { SqliteDatabase } from './sqlite-driver';

export interface ViewerRecall {
  /** The first follow Greenroom saw, or null. */
  followedAtMs: number | null;
  /** Where Greenroom's knowledge starts (first stream seen, oldest chat line kept, this viewer's first sighting); null for an empty history. */
  historySinceMs: number | null;
  /** Streams Greenroom saw this viewer in. */
  streams: number;
  /**
   * The latest moment before `beforeMs` Greenroom saw this viewer, or null when never. When their lines from then
   * were already deleted after the retention days, the pruning point: they were seen no later than that.
   */
  lastSeenBeforeMs: number | null;
}

export interface ViewerRecallQueries {
  recall(userId: number, beforeMs: number): ViewerRecall;
}

export function createViewerRecall(db: SqliteDatabase): ViewerRecallQueries {
  const since = db.prepare(
    'SELECT min(at) AS at FROM (SELECT min(seen_from_ms) AS at FROM streams UNION ALL SELECT min(at_ms) FROM chat_lines)',
  );
  const viewer = db.prepare(
    `SELECT first_seen_ms, last_seen_ms, followed_at_ms,
       (SELECT count(*) FROM viewer_streams s WHERE s.user_id = v.user_id) AS streams
     FROM viewers v WHERE user_id = ?`,
  );
  const lastChat = db.prepare('SELECT max(at_ms) AS at FROM chat_lines WHERE user_id = ? AND at_ms < ?');
  const lastEvent = db.prepare('SELECT max(at_ms) AS at FROM events WHERE user_id = ? AND at_ms < ?');
  const pruned = db.prepare("SELECT value FROM meta WHERE name = 'chat_pruned_before_ms'");
  const num = (value: unknown): number | null => (value == null ? null : Number(value));
  return {
    recall(userId, beforeMs) {
      const row = viewer.get(userId);
      const globalSince = num(since.get()?.at);
      if (!row) {
        return { followedAtMs: null, historySinceMs: globalSince, streams: 0, lastSeenBeforeMs: null };
      }
      const firstSeenMs = Number(row.first_seen_ms);
      const lastSeenMs = Number(row.last_seen_ms);
      let lastSeenBeforeMs: number | null = null;
      if (lastSeenMs < beforeMs) {
        lastSeenBeforeMs = lastSeenMs;
      } else if (firstSeenMs < beforeMs) {
        const found = Math.max(
          num(lastChat.get(userId, beforeMs)?.at) ?? -Infinity,
          num(lastEvent.get(userId, beforeMs)?.at) ?? -Infinity,
        );
        const prunedBeforeMs = num(pruned.get()?.value);
        // Their lines were pruned: seen at the latest just before the pruning point.
        lastSeenBeforeMs = Number.isFinite(found)
          ? Math.max(found, Math.min(prunedBeforeMs ?? -Infinity, beforeMs - 1))
          : Math.min(prunedBeforeMs ?? firstSeenMs, beforeMs - 1);
      }
      return {
        followedAtMs: num(row.followed_at_ms),
        historySinceMs: globalSince === null ? firstSeenMs : Math.min(globalSince, firstSeenMs),
        streams: Number(row.streams),
        lastSeenBeforeMs,
      };
    },
  };
}

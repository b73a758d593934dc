/**
 * Which stream an event belongs to: the one whose span holds Kick's time for it, not the one open when it
 * arrived ([history](../../docs/history.md#which-stream-an-event-belongs-to)). Kick's live-status webhook can
 * come after the live socket's first chat lines, and a webhook minutes behind after its stream's offline; filed
 * by arrival, those lines would count for no stream. So a row is filed by its time, and when a stream begins
 * or ends, the rows already kept are filed again: the ones outside any stream whose time falls in a stream that
 * began join it, and a stream's chat lines Kick dated after its end leave it.
 *
 * An event whose only time is the delivery's (a follow: Kick's payload has no time of its own) is filed under the
 * stream open when it came, by that time only when none was open (`history-projector.ts`): a webhook that ran
 * behind is sent after its stream ended, and still belongs to it.
 *
 * The live socket (and some of Kick's payloads) give a time in whole seconds; the projector dates such an event
 * to the latest moment the second and its arrival allow, so one from the second the stream began is on the side
 * of the start it happened. At the end the same line reads up to a second late, and its signed webhook, which
 * would date it to the millisecond, is a copy Greenroom does not keep. So a stream's end takes in its whole
 * second: a row belongs to an ended stream when the second it is dated in began by the end.
 *
 * Runs inside the store's transaction; the attendance (`viewer_streams`) follows the rows.
 */
import type { StreamAt } from './history-projector';
import type { SqliteDatabase } from './sqlite-driver';

/** Live status rows name their stream themselves (the one that began or ended), whatever their time. */
const NAMED = "type <> 'livestream.status.updated'";
/** A ban is no visit: it files the row, not an attendance. */
const VISIT = "type NOT IN ('livestream.status.updated', 'moderation.banned')";

export interface StreamFiling {
  streamAt: StreamAt;
  /**
   * A stream was added: the rows outside any stream whose time falls in it (before the next stream, and by its end
   * when it was added already ended) are filed under it.
   */
  started(startedAtMs: number): void;
  /**
   * A stream ended: its chat lines dated after the end's second leave it (from the end itself when the next
   * stream's start ended it, `byNext`: that moment is the next stream's), and their viewers' attendance with them. Only
   * chat: every line carries Kick's time, where a follow's only time is when Kick sent the webhook, which is after
   * the end when Kick's webhooks run behind.
   */
  ended(startedAtMs: number, endedAtMs: number, byNext?: boolean): void;
  /** Forgets that a viewer attended a stream when none of their rows (a ban aside) is left in it. */
  forgetAttendance(userId: number, streamId: number): void;
}

/** The start of the whole second `ms` falls in. */
const secondOf = (ms: number): number => ms - (((ms % 1000) + 1000) % 1000);

export function createStreamFiling(db: SqliteDatabase): StreamFiling {
  const sql = {
    // The latest stream begun by then, and its end.
    latest: db.prepare(
      'SELECT started_at_ms, ended_at_ms FROM streams WHERE started_at_ms <= ? ORDER BY started_at_ms DESC LIMIT 1',
    ),
    next: db.prepare('SELECT min(started_at_ms) AS at FROM streams WHERE started_at_ms > ?'),
    endOf: db.prepare('SELECT ended_at_ms FROM streams WHERE started_at_ms = ?'),
    joinChat: db.prepare(
      'UPDATE chat_lines SET stream_id = ?1 WHERE stream_id IS NULL AND at_ms >= ?2 AND at_ms < ?3 RETURNING user_id',
    ),
    joinEvents: db.prepare(
      `UPDATE events SET stream_id = ?1 WHERE stream_id IS NULL AND at_ms >= ?2 AND at_ms < ?3 AND ${NAMED}
       RETURNING user_id, type`,
    ),
    leaveChat: db.prepare(
      'UPDATE chat_lines SET stream_id = NULL WHERE stream_id = ?1 AND at_ms - (at_ms % 1000) > ?2 RETURNING user_id',
    ),
    previous: db.prepare(
      'SELECT started_at_ms, ended_at_ms FROM streams WHERE started_at_ms < ? ORDER BY started_at_ms DESC LIMIT 1',
    ),
    takeChat: db.prepare(
      'UPDATE chat_lines SET stream_id = ?1 WHERE stream_id = ?2 AND at_ms >= ?1 AND at_ms < ?3 RETURNING user_id',
    ),
    leaveChatForNext: db.prepare(
      'UPDATE chat_lines SET stream_id = NULL WHERE stream_id = ?1 AND at_ms >= ?2 RETURNING user_id',
    ),
    attended: db.prepare('INSERT OR IGNORE INTO viewer_streams (user_id, stream_id) VALUES (?, ?)'),
    forget: db.prepare(
      `DELETE FROM viewer_streams WHERE user_id = ?1 AND stream_id = ?2
       AND NOT EXISTS (SELECT 1 FROM chat_lines WHERE stream_id = ?2 AND user_id = ?1)
       AND NOT EXISTS (SELECT 1 FROM events WHERE user_id = ?1 AND stream_id = ?2 AND ${VISIT})`,
    ),
  };

  /** The viewers of rows a filing moved (a ban's viewer did not visit). */
  const visitors = (rows: Record<string, unknown>[]): Set<number> =>
    new Set(
      rows.filter((r) => r.user_id != null && r.type !== 'moderation.banned').map((r) => Number(r.user_id as number)),
    );

  const forgetAttendance = (userId: number, streamId: number): void => {
    sql.forget.run(userId, streamId);
  };

  return {
    streamAt(atMs) {
      const row = sql.latest.get(atMs);
      if (!row) {
        return null;
      }
      const ended = row.ended_at_ms == null ? null : Number(row.ended_at_ms);
      return ended === null || secondOf(atMs) <= ended ? Number(row.started_at_ms) : null;
    },

    started(startedAtMs) {
      const next = sql.next.get(startedAtMs)?.at;
      // A stream kept already ended (its offline came before its live status) takes nothing after its end.
      const ended = sql.endOf.get(startedAtMs)?.ended_at_ms;
      const until = Math.min(
        next == null ? Number.MAX_SAFE_INTEGER : Number(next),
        ended == null ? Number.MAX_SAFE_INTEGER : secondOf(Number(ended)) + 1000,
      );
      // The stream before, ended where this one began (or later), holds lines from this start on only by the
      // whole second its end takes in: they are this stream's. One that ended earlier, even in this second,
      // keeps its lines: that they came after its end is more than a whole second can tell.
      const previous = sql.previous.get(startedAtMs);
      const before = previous?.started_at_ms;
      const handsOver = before != null && previous?.ended_at_ms != null && Number(previous.ended_at_ms) >= startedAtMs;
      const handedOver = handsOver ? sql.takeChat.all(startedAtMs, Number(before), until) : [];
      const moved = [
        ...sql.joinChat.all(startedAtMs, startedAtMs, until),
        ...sql.joinEvents.all(startedAtMs, startedAtMs, until),
        ...handedOver,
      ];
      for (const userId of visitors(moved)) {
        sql.attended.run(userId, startedAtMs);
      }
      for (const userId of visitors(handedOver)) {
        forgetAttendance(userId, Number(before));
      }
    },

    ended(startedAtMs, endedAtMs, byNext = false) {
      const left = (byNext ? sql.leaveChatForNext : sql.leaveChat).all(startedAtMs, endedAtMs);
      for (const userId of visitors(left)) {
        forgetAttendance(userId, startedAtMs);
      }
    },

    forgetAttendance,
  };
}

/**
 * Every stream in the history with its key figures, each compared with the stream before it
 * ([history](../../docs/history.md#the-streams-list)). A pure query: a few grouped counts over the whole store,
 * read once, never per stream.
 */
import type { HistoryStreamFigures, HistoryStreamItem } from '../../shared/history';
import type { SqliteDatabase } from './sqlite-driver';
import { COUNTS_AS_SUPPORT_SQL } from './support-amounts';

export type StreamFigures = HistoryStreamFigures;
/** One stream with its figures and the change from the stream before it (null for the first). */
export type StreamListItem = HistoryStreamItem;

const FIGURES: readonly (keyof StreamFigures)[] = ['durationMs', 'messages', 'chatters', 'followers', 'subs', 'kicks'];

/** Newest first, as a list of past streams reads. */
export function listStreams(db: SqliteDatabase): StreamListItem[] {
  const chat = new Map(
    db
      .prepare(
        `SELECT stream_id, count(*) AS messages, count(DISTINCT user_id) AS chatters, max(at_ms) AS last
         FROM chat_lines WHERE stream_id IS NOT NULL GROUP BY stream_id`,
      )
      .all()
      .map((r) => [
        Number(r.stream_id),
        { messages: Number(r.messages), chatters: Number(r.chatters), last: Number(r.last) },
      ]),
  );
  const events = new Map(
    db
      .prepare(
        `SELECT stream_id, max(at_ms) AS last,
           count(DISTINCT CASE WHEN type = 'channel.followed' THEN user_id END) AS followers,
           sum(CASE WHEN NOT coalesce(${COUNTS_AS_SUPPORT_SQL}, 0) THEN 0
                    WHEN type IN ('channel.subscription.new', 'channel.subscription.renewal') THEN 1
                    WHEN type = 'channel.subscription.gifts' THEN amount ELSE 0 END) AS subs,
           sum(CASE WHEN type = 'kicks.gifted' AND ${COUNTS_AS_SUPPORT_SQL} THEN amount ELSE 0 END) AS kicks
         FROM events WHERE stream_id IS NOT NULL GROUP BY stream_id`,
      )
      .all()
      .map((r) => [
        Number(r.stream_id),
        {
          last: Number(r.last),
          followers: Number(r.followers),
          subs: Number(r.subs ?? 0),
          kicks: Number(r.kicks ?? 0),
        },
      ]),
  );
  const items: StreamListItem[] = [];
  let previous: StreamFigures | null = null;
  for (const row of db.prepare('SELECT * FROM streams ORDER BY started_at_ms').all()) {
    const startedAtMs = Number(row.started_at_ms);
    const endedAtMs = row.ended_at_ms == null ? null : Number(row.ended_at_ms);
    const c = chat.get(startedAtMs);
    const e = events.get(startedAtMs);
    const end = endedAtMs ?? Math.max(startedAtMs, c?.last ?? 0, e?.last ?? 0);
    const figures: StreamFigures = {
      durationMs: Math.max(0, end - startedAtMs),
      messages: c?.messages ?? 0,
      chatters: c?.chatters ?? 0,
      followers: e?.followers ?? 0,
      subs: e?.subs ?? 0,
      kicks: e?.kicks ?? 0,
    };
    const before: StreamFigures | null = previous;
    items.push({
      startedAtMs,
      endedAtMs,
      title: String(row.title),
      category: row.category == null ? null : String(row.category),
      figures,
      comparedWithPrevious: before
        ? (Object.fromEntries(FIGURES.map((k) => [k, figures[k] - before[k]])) as unknown as StreamFigures)
        : null,
    });
    previous = figures;
  }
  return items.reverse();
}

/**
 * The stream history over an open, migrated database ([history](../../docs/history.md)): applies journal
 * records through the projector, keeps streams, events, chat lines and viewer counts, prunes chat lines after
 * the retention days, and answers the reads a recap and a user card will need. Opening the file, moving a
 * damaged one aside and the rebuild live in `history-open.ts`.
 *
 * Each record is applied in one transaction: its row, and only if the row is new, its stream changes and
 * viewer counts, with the journal position. A record applied twice (a restart's catch-up, a chat line the
 * live socket brought first and its webhook after) changes nothing the second time.
 */
import type { HistoryStreamChange, HistoryStreamSummary, HistoryViewerStoryView } from '../../shared/history';
import type { Clock } from '../core/clock';
import type { JournalRecord } from '../webhooks/events/types';
import { projectLiveStatus, projectRecord } from './history-projector';
import type { HistoryRow, LiveStatus, OpenStream, StreamOp, ViewerDelta } from './history-projector';
import { createSignedLines } from './signed-lines';
import type { SqliteDatabase, SqliteValue } from './sqlite-driver';
import { createStreamFiling } from './stream-filing';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Chat lines the retention prune deletes per transaction. One `DELETE` of a million lines (90 days to 1) held the
 * app for 3.6 s, its roll-up triggers included; in batches of this size each step takes a few tens of ms and the
 * app answers between them ([history](../../docs/history.md#what-it-keeps)).
 */
export const PRUNE_BATCH_ROWS = 5_000;

/** Waits for the next turn of the event loop, after any I/O and timers due: what the batched prune awaits. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Chat lines are kept this many days unless the streamer says otherwise. */
export const DEFAULT_CHAT_RETENTION_DAYS = 90;
/** Records per transaction while catching up with the journal. */
const CATCH_UP_BATCH = 500;

/** The shapes the panel reads are defined once, in the contract's types: the compiler keeps them the same. */
export type StreamSummary = HistoryStreamSummary;
export type StreamChange = HistoryStreamChange;
/** A viewer's counts, kept for good: the user card's story without its moderation list. */
export type ViewerStory = Omit<HistoryViewerStoryView, 'moderation' | 'historySinceMs'>;

export interface EventRow {
  key: string;
  type: string;
  atMs: number;
  streamId: number | null;
  userId: number | null;
  username: string | null;
  amount: number | null;
  detail: string | null;
}

export interface ChatLineRow {
  key: string;
  atMs: number;
  streamId: number | null;
  userId: number | null;
  username: string | null;
  content: string;
}

export interface HistoryStore {
  /** Applies one record as the live path journals it; true when it was new to the store. */
  apply: (record: JournalRecord) => boolean;
  /**
   * Applies several live records in one transaction and returns those that were new. A commit cost far more
   * than a chat line's rows, so a raid's chat is kept a batch at a time
   * ([history](../../docs/history.md#one-transaction-at-a-time)). One record that fails rolls the whole batch
   * back: the caller then applies them one by one.
   */
  applyMany: (records: readonly JournalRecord[]) => JournalRecord[];
  /** Applies the journal's records after the last one the store holds (all of them when it holds none). */
  catchUp: (records: readonly JournalRecord[]) => number;
  /** Kick's live status read at start: a stream live then is joined (or begun), one that ended is closed. */
  observeLiveStatus: (status: LiveStatus) => void;
  /** Deletes chat lines older than the retention days, all at once; returns how many. Counts per viewer stay. */
  prune: () => number;
  /**
   * The same prune in transactions of at most `batchRows` lines, awaiting `yieldNow` between them so the app
   * answers in between; stops early (with what it removed) when the store is closed meanwhile.
   */
  pruneInBatches: (yieldNow: () => Promise<void>, batchRows?: number) => Promise<number>;
  streams(): StreamSummary[];
  streamChanges(streamId: number): StreamChange[];
  viewer(userId: number): ViewerStory | null;
  events(filter?: { streamId?: number; userId?: number }): EventRow[];
  chatLines(filter?: { streamId?: number; userId?: number }): ChatLineRow[];
  close(): void;
}

export interface HistoryStoreDeps {
  clock: Clock;
  chatRetentionDays?: number;
}

const UPSERT_VIEWER = `
INSERT INTO viewers (user_id, username, first_seen_ms, last_seen_ms, messages, followed_at_ms, sub_months, gifted_subs, kicks)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (user_id) DO UPDATE SET
  username = CASE WHEN excluded.last_seen_ms >= last_seen_ms THEN excluded.username ELSE username END,
  first_seen_ms = min(first_seen_ms, excluded.first_seen_ms),
  last_seen_ms = max(last_seen_ms, excluded.last_seen_ms),
  messages = messages + excluded.messages,
  followed_at_ms = coalesce(min(followed_at_ms, excluded.followed_at_ms), followed_at_ms, excluded.followed_at_ms),
  sub_months = max(sub_months, excluded.sub_months),
  gifted_subs = gifted_subs + excluded.gifted_subs,
  kicks = kicks + excluded.kicks`;

/** The store over `db`, which `migrate` has brought to the current schema. */
export function createHistoryStore(db: SqliteDatabase, options: HistoryStoreDeps): HistoryStore {
  const { clock } = options;
  const retentionDays = options.chatRetentionDays ?? DEFAULT_CHAT_RETENTION_DAYS;
  if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > 36_500) {
    throw new RangeError(`chat retention must be a whole number of days from 1 to 36500, got ${retentionDays}`);
  }
  const sql = {
    insertEvent: db.prepare(
      `INSERT OR IGNORE INTO events (key, type, at_ms, received_at_ms, stream_id, user_id, username, amount, detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertChat: db.prepare(
      `INSERT OR IGNORE INTO chat_lines (key, at_ms, stream_id, user_id, username, content) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    upsertViewer: db.prepare(UPSERT_VIEWER),
    attended: db.prepare('INSERT OR IGNORE INTO viewer_streams (user_id, stream_id) VALUES (?, ?)'),
    startStream: db.prepare(
      `INSERT INTO streams (started_at_ms, ended_at_ms, seen_from_ms, title, category) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (started_at_ms) DO NOTHING`,
    ),
    endStream: db.prepare('UPDATE streams SET ended_at_ms = ? WHERE started_at_ms = ? AND ended_at_ms IS NULL'),
    earlierEnd: db.prepare('UPDATE streams SET ended_at_ms = ?1 WHERE started_at_ms = ?2 AND ended_at_ms > ?1'),
    lastActivity: db.prepare(
      `SELECT max(at) AS at FROM (SELECT max(at_ms) AS at FROM events WHERE stream_id = ?1
       UNION ALL SELECT max(at_ms) FROM chat_lines WHERE stream_id = ?1)`,
    ),
    change: db.prepare('INSERT INTO stream_changes (stream_id, at_ms, title, category) VALUES (?, ?, ?, ?)'),
    // A change Kick sent late (an earlier one than the last kept) is recorded, but the stream keeps the newest.
    retitle: db.prepare(
      `UPDATE streams SET title = ?1, category = ?2 WHERE started_at_ms = ?3
       AND NOT EXISTS (SELECT 1 FROM stream_changes WHERE stream_id = ?3 AND at_ms > ?4)`,
    ),
    streamRow: db.prepare('SELECT title, category FROM streams WHERE started_at_ms = ?'),
    getMeta: db.prepare('SELECT value FROM meta WHERE name = ?'),
    setMeta: db.prepare(
      'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    ),
    viewer: db.prepare(
      'SELECT *, (SELECT count(*) FROM viewer_streams s WHERE s.user_id = v.user_id) AS streams FROM viewers v WHERE user_id = ?',
    ),
    openStream: db.prepare(
      'SELECT started_at_ms FROM streams WHERE ended_at_ms IS NULL ORDER BY started_at_ms DESC LIMIT 1',
    ),
  };
  const meta = (name: string): string | null => {
    const row = sql.getMeta.get(name);
    return row ? String(row.value) : null;
  };
  /** The stream the table says is open: a stream that ended is never reopened by a late status. */
  const readOpen = (): OpenStream | null => {
    const row = sql.openStream.get();
    return row ? { startedAtMs: Number(row.started_at_ms) } : null;
  };
  let open = readOpen();
  const filing = createStreamFiling(db);
  const signedLines = createSignedLines(db, filing);
  /** Chat lines before this time were counted and then pruned: seeing one again must not count it twice. */
  let prunedBefore = Number(meta('chat_pruned_before_ms') ?? 0);

  function insertRow(row: HistoryRow): boolean {
    const result =
      row.table === 'chat_lines'
        ? sql.insertChat.run(row.key, row.atMs, row.streamId, row.userId, row.username, row.text ?? '')
        : sql.insertEvent.run(
            row.key,
            row.type,
            row.atMs,
            row.receivedAtMs,
            row.streamId,
            row.userId,
            row.username,
            row.amount,
            row.text,
          );
    return Number(result.changes) > 0;
  }

  function applyStream(op: StreamOp): void {
    if (op.op === 'start') {
      const added = sql.startStream.run(op.startedAtMs, op.endedAtMs ?? null, op.seenFromMs, op.title, op.category);
      if (Number(added.changes) > 0) {
        filing.started(op.startedAtMs);
      }
    } else if (op.op === 'end') {
      const last = op.endedAtMs ?? sql.lastActivity.get(op.startedAtMs)?.at;
      const endedAtMs = typeof last === 'number' ? last : op.startedAtMs;
      const ends =
        Number(sql.endStream.run(endedAtMs, op.startedAtMs).changes) > 0 ||
        // Kick's own end, earlier than the one taken when the next stream began before this offline came.
        (op.endedAtMs !== null && !op.byNext && Number(sql.earlierEnd.run(endedAtMs, op.startedAtMs).changes) > 0);
      if (ends) {
        filing.ended(op.startedAtMs, endedAtMs, op.byNext === true);
      }
    } else {
      sql.change.run(op.startedAtMs, op.atMs, op.title, op.category);
      sql.retitle.run(op.title, op.category, op.startedAtMs, op.atMs);
    }
  }

  function applyViewer(delta: ViewerDelta, streamId: number | null): void {
    sql.upsertViewer.run(
      delta.userId,
      delta.username,
      delta.atMs,
      delta.atMs,
      delta.messages ?? 0,
      delta.followedAtMs ?? null,
      delta.subMonths ?? 0,
      delta.giftedSubs ?? 0,
      delta.kicks ?? 0,
    );
    if (streamId !== null) {
      sql.attended.run(delta.userId, streamId);
    }
  }

  /** Applies one record inside the caller's transaction. */
  function applyOne(record: JournalRecord): boolean {
    const projection = projectRecord(record, open, filing.streamAt);
    const { row } = projection;
    sql.setMeta.run('last_record', record.messageId);
    if (row.table === 'chat_lines' && row.atMs < prunedBefore) {
      return false;
    }
    const kept = row.table === 'chat_lines' ? signedLines.find(row) : null;
    if (kept) {
      // The same line again: the socket's copy changes nothing; the signed one's words and sender win.
      return (
        !row.fromSocket &&
        signedLines.replace(kept, row, () => projection.viewers.forEach((delta) => applyViewer(delta, row.streamId)))
      );
    }
    if (!insertRow(row)) {
      return false;
    }
    projection.streams.forEach(applyStream);
    projection.viewers.forEach((delta) => applyViewer(delta, row.streamId));
    open = projection.streams.length > 0 ? readOpen() : projection.open;
    return true;
  }

  let closed = false;
  const deleteOldChat = db.prepare(
    'DELETE FROM chat_lines WHERE rowid IN (SELECT rowid FROM chat_lines WHERE at_ms < ? ORDER BY at_ms LIMIT ?)',
  );

  /**
   * Marks lines before the cutoff as counted and pruned first, so a line seen again between two batches (or after
   * the last) is never counted twice; one still there until its batch is already counted. Returns the cutoff.
   */
  function startPrune(): number {
    const cutoff = clock.now() - retentionDays * DAY_MS;
    if (cutoff > prunedBefore) {
      transaction(() => sql.setMeta.run('chat_pruned_before_ms', String(cutoff)));
      prunedBefore = cutoff;
    }
    return cutoff;
  }

  /** Deletes up to `limit` of the oldest lines before `cutoff` in one transaction (the triggers uncount them). */
  function pruneBatch(cutoff: number, limit = PRUNE_BATCH_ROWS): number {
    return transaction(() => Number(deleteOldChat.run(cutoff, limit).changes));
  }

  function transaction<T>(work: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    const before = open;
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      open = before;
      throw error;
    }
  }

  const rows = <T>(query: string, params: SqliteValue[], map: (row: Record<string, SqliteValue>) => T): T[] =>
    db
      .prepare(query)
      .all(...params)
      .map(map);

  const filterSql = (filter: { streamId?: number; userId?: number }): [string, SqliteValue[]] => {
    const where: string[] = [];
    const params: SqliteValue[] = [];
    if (filter.streamId !== undefined) {
      where.push('stream_id = ?');
      params.push(filter.streamId);
    }
    if (filter.userId !== undefined) {
      where.push('user_id = ?');
      params.push(filter.userId);
    }
    return [where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', params];
  };
  const num = (value: SqliteValue | undefined): number | null => (value == null ? null : Number(value));
  const str = (value: SqliteValue | undefined): string | null => (value == null ? null : String(value));

  return {
    apply: (record) => transaction(() => applyOne(record)),
    applyMany: (records) => transaction(() => records.filter(applyOne)),

    catchUp(records) {
      const last = meta('last_record');
      let from = 0;
      if (last !== null) {
        // Not found: the journal rolled over past it, so everything in it is newer than the store.
        for (let i = records.length - 1; i >= 0; i--) {
          if (records[i]!.messageId === last) {
            from = i + 1;
            break;
          }
        }
      }
      let applied = 0;
      for (let i = from; i < records.length; i += CATCH_UP_BATCH) {
        const batch = records.slice(i, i + CATCH_UP_BATCH);
        applied += transaction(() => batch.filter(applyOne).length);
      }
      return applied;
    },

    observeLiveStatus(status) {
      const ops = projectLiveStatus(status, open, clock.now());
      const kept = open && status.isLive && ops.length === 0 ? sql.streamRow.get(open.startedAtMs) : undefined;
      if (kept && (kept.title !== status.title || (kept.category ?? null) !== status.category)) {
        // The stream joined again after a restart, retitled while Greenroom was closed: a change, seen now.
        ops.push({
          op: 'change',
          startedAtMs: open!.startedAtMs,
          atMs: clock.now(),
          title: status.title,
          category: status.category,
        });
      }
      if (ops.length === 0) {
        return;
      }
      transaction(() => {
        ops.forEach(applyStream);
        open = readOpen();
      });
    },

    prune() {
      const cutoff = startPrune();
      let removed = 0;
      for (let batch = pruneBatch(cutoff); batch > 0; batch = pruneBatch(cutoff)) {
        removed += batch;
      }
      return removed;
    },

    async pruneInBatches(yieldNow, batchRows = PRUNE_BATCH_ROWS) {
      const cutoff = startPrune();
      let removed = 0;
      for (;;) {
        const batch = pruneBatch(cutoff, batchRows);
        removed += batch;
        if (batch < batchRows) {
          return removed;
        }
        await yieldNow();
        if (closed) {
          return removed; // the next prune (at the next open) takes the rest
        }
      }
    },

    streams: () =>
      rows('SELECT * FROM streams ORDER BY started_at_ms', [], (r) => ({
        startedAtMs: Number(r.started_at_ms),
        endedAtMs: num(r.ended_at_ms),
        seenFromMs: Number(r.seen_from_ms),
        title: String(r.title),
        category: str(r.category),
      })),

    streamChanges: (streamId) =>
      rows('SELECT * FROM stream_changes WHERE stream_id = ? ORDER BY at_ms, id', [streamId], (r) => ({
        atMs: Number(r.at_ms),
        title: String(r.title),
        category: str(r.category),
      })),

    viewer(userId) {
      const r = sql.viewer.get(userId);
      return r
        ? {
            userId: Number(r.user_id),
            username: String(r.username),
            firstSeenMs: Number(r.first_seen_ms),
            lastSeenMs: Number(r.last_seen_ms),
            messages: Number(r.messages),
            followedAtMs: num(r.followed_at_ms),
            subMonths: Number(r.sub_months),
            giftedSubs: Number(r.gifted_subs),
            kicks: Number(r.kicks),
            streams: Number(r.streams),
          }
        : null;
    },

    events(filter = {}) {
      const [where, params] = filterSql(filter);
      return rows(`SELECT * FROM events ${where} ORDER BY at_ms, id`, params, (r) => ({
        key: String(r.key),
        type: String(r.type),
        atMs: Number(r.at_ms),
        streamId: num(r.stream_id),
        userId: num(r.user_id),
        username: str(r.username),
        amount: num(r.amount),
        detail: str(r.detail),
      }));
    },

    chatLines(filter = {}) {
      const [where, params] = filterSql(filter);
      return rows(`SELECT * FROM chat_lines ${where} ORDER BY at_ms, id`, params, (r) => ({
        key: String(r.key),
        atMs: Number(r.at_ms),
        streamId: num(r.stream_id),
        userId: num(r.user_id),
        username: str(r.username),
        content: String(r.content),
      }));
    },

    close: () => {
      closed = true;
      db.close();
    },
  };
}

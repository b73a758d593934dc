/**
 * Each stream's chat counted per minute and per chatter, kept beside the chat lines by the database itself
 * ([history](../../docs/history.md#chat-roll-ups)), so a recap of half a million lines reads a few hundred
 * minutes and one row per chatter instead of every line.
 *
 * Triggers on `chat_lines` keep the counts, not the code that writes the lines: every way a line comes, goes or
 * moves (the live path, the rebuild from the journal, a line moved to another stream, the retention prune, a
 * signed line replacing the socket's) changes the counts in the same statement, so they always equal a direct
 * count of the lines (a unit test compares both on random data). A line outside any stream is in no roll-up.
 * One caveat is SQLite's: a row removed by `INSERT OR REPLACE` fires no delete trigger unless the connection
 * turned `recursive_triggers` on, so the store removes lines with `DELETE` or `UPDATE`, never `REPLACE`.
 */
import type { SqliteDatabase } from './sqlite-driver';

/** A minute of chat, counted from the stream's start. */
export const ROLLUP_MINUTE_MS = 60_000;

/**
 * The minute of the stream a line falls in, from its row (`NEW` or `OLD`); -1 for a line Kick dated before the
 * stream's start (the recap counts it in the first minute). Cast: a time bound from JavaScript may be a real.
 */
const minuteOf = (row: 'NEW' | 'OLD'): string =>
  `CASE WHEN CAST(${row}.at_ms AS INTEGER) < CAST(${row}.stream_id AS INTEGER) THEN -1
   ELSE (CAST(${row}.at_ms AS INTEGER) - CAST(${row}.stream_id AS INTEGER)) / ${ROLLUP_MINUTE_MS} END`;

/** Counts the line in `NEW` (caller's `WHEN`: it belongs to a stream). */
const countNew = `
  INSERT INTO stream_chat_minutes (stream_id, minute, messages) VALUES (NEW.stream_id, ${minuteOf('NEW')}, 1)
    ON CONFLICT (stream_id, minute) DO UPDATE SET messages = messages + 1;
  INSERT INTO stream_chatters (stream_id, user_id, messages) SELECT NEW.stream_id, NEW.user_id, 1
    WHERE NEW.user_id IS NOT NULL
    ON CONFLICT (stream_id, user_id) DO UPDATE SET messages = messages + 1;`;

/** Uncounts the line in `OLD`; a minute or chatter left with none is removed, as a direct count would not list it. */
const uncountOld = `
  UPDATE stream_chat_minutes SET messages = messages - 1 WHERE stream_id = OLD.stream_id AND minute = ${minuteOf('OLD')};
  DELETE FROM stream_chat_minutes WHERE stream_id = OLD.stream_id AND minute = ${minuteOf('OLD')} AND messages <= 0;
  UPDATE stream_chatters SET messages = messages - 1 WHERE stream_id = OLD.stream_id AND user_id = OLD.user_id;
  DELETE FROM stream_chatters WHERE stream_id = OLD.stream_id AND user_id = OLD.user_id AND messages <= 0;`;

/** Schema version 4: the two roll-ups, filled from the lines a store already holds, and the triggers. */
export const CHAT_ROLLUPS = `
CREATE TABLE stream_chat_minutes (
  stream_id INTEGER NOT NULL,
  minute INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  PRIMARY KEY (stream_id, minute)
) WITHOUT ROWID;
CREATE TABLE stream_chatters (
  stream_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL,
  messages INTEGER NOT NULL,
  PRIMARY KEY (stream_id, user_id)
) WITHOUT ROWID;
INSERT INTO stream_chat_minutes (stream_id, minute, messages)
  SELECT stream_id, ${minuteOf('NEW').replaceAll('NEW.', '')} AS m, count(*) FROM chat_lines
  WHERE stream_id IS NOT NULL GROUP BY stream_id, m;
INSERT INTO stream_chatters (stream_id, user_id, messages)
  SELECT stream_id, user_id, count(*) FROM chat_lines
  WHERE stream_id IS NOT NULL AND user_id IS NOT NULL GROUP BY stream_id, user_id;
CREATE TRIGGER chat_lines_count_insert AFTER INSERT ON chat_lines WHEN NEW.stream_id IS NOT NULL
BEGIN ${countNew}
END;
CREATE TRIGGER chat_lines_count_delete AFTER DELETE ON chat_lines WHEN OLD.stream_id IS NOT NULL
BEGIN ${uncountOld}
END;
CREATE TRIGGER chat_lines_count_move_out AFTER UPDATE OF at_ms, stream_id, user_id ON chat_lines
  WHEN OLD.stream_id IS NOT NULL
BEGIN ${uncountOld}
END;
CREATE TRIGGER chat_lines_count_move_in AFTER UPDATE OF at_ms, stream_id, user_id ON chat_lines
  WHEN NEW.stream_id IS NOT NULL
BEGIN ${countNew}
END;
`;

/** One stream's chat as the roll-ups hold it. */
export interface StreamChatCounts {
  /** [minute from the start (-1: before it), lines], ascending. */
  minutes: [number, number][];
  /** Each chatter with a user id: the viewer's latest name, lines, and whether first seen before `seenBeforeMs`. */
  chatters: { userIds: number[]; usernames: string[]; messages: number[]; seenBefore: (0 | 1)[] };
}

export interface RollupQueries {
  streamChat(streamId: number, seenBeforeMs: number): StreamChatCounts;
}

export function createRollupQueries(db: SqliteDatabase): RollupQueries {
  const sql = {
    minutes: db.prepare(
      'SELECT json_group_array(json_array(minute, messages)) AS list FROM stream_chat_minutes WHERE stream_id = ?',
    ),
    // Column by column, one JSON text each: a hundred thousand chatters parse several times faster as four flat
    // arrays than as one array of rows, and far faster than a row object each. The four aggregate the same rows
    // in the same order. The name is the viewer's latest; seen before: the first sighting (kept for good).
    chatters: db.prepare(
      `SELECT json_group_array(c.user_id) AS ids, json_group_array(v.username) AS names,
         json_group_array(c.messages) AS messages, json_group_array(v.first_seen_ms < CAST(?2 AS INTEGER)) AS before
       FROM stream_chatters c JOIN viewers v ON v.user_id = c.user_id WHERE c.stream_id = ?1`,
    ),
  };
  const parse = <T>(value: unknown): T[] => JSON.parse(typeof value === 'string' ? value : '[]') as T[];
  return {
    streamChat(streamId, seenBeforeMs) {
      const row = sql.chatters.get(streamId, seenBeforeMs);
      return {
        minutes: parse<[number, number]>(sql.minutes.get(streamId)?.list),
        chatters: {
          userIds: parse<number>(row?.ids),
          usernames: parse<string>(row?.names),
          messages: parse<number>(row?.messages),
          seenBefore: parse<0 | 1>(row?.before),
        },
      };
    },
  };
}

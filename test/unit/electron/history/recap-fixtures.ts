/**
 * Shared by the recap, streams-list and viewer-story tests: an in-memory store fed through the projector from
 * journal-shaped records, and two scripted streams whose every list item is known.
 */
import { migrate } from '../../../../electron/history/history-schema';
import { createHistoryStore } from '../../../../electron/history/history-store';
import type { HistoryStore } from '../../../../electron/history/history-store';
import type { SqliteDatabase } from '../../../../electron/history/sqlite-driver';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';
import { driver, events, fakeClock, MIN, record, socketCopy, T0, user } from './history-fixtures';

export { events, MIN, T0 };
export const T1 = T0 + 24 * 60 * MIN;
const iso = (ms: number): string => new Date(ms).toISOString();
const BROADCASTER = user(1, 'streamer');
const compact = (id: number) => ({
  user_id: id,
  username: `viewer_${id}`,
  is_verified: false,
  profile_picture: null,
  channel_slug: `viewer_${id}`,
});

export const more = {
  redemption: (id: string, userId: number, reward: string, status: string, redeemedAtMs: number, atMs = redeemedAtMs) =>
    record(
      'channel.reward.redemption.updated',
      {
        id,
        user_input: '',
        status,
        redeemed_at: iso(redeemedAtMs),
        reward: { id: `r-${reward}`, title: reward, cost: 100, description: '' },
        redeemer: compact(userId),
        broadcaster: compact(1),
      },
      atMs,
    ),
  timeout: (userId: number, atMs: number, minutes: number) =>
    record(
      'moderation.banned',
      {
        broadcaster: BROADCASTER,
        moderator: user(2, 'mod'),
        banned_user: user(userId),
        metadata: { reason: 'caps', created_at: iso(atMs), expires_at: iso(atMs + minutes * MIN) },
      },
      atMs,
    ),
  /** The same record received `lagMs` after Kick's time for it. */
  late: (rec: JournalRecord, lagMs: number): JournalRecord => {
    const at = Date.parse(rec.timestamp);
    return { ...rec, receivedAtMs: at + lagMs };
  },
};

export interface Fed {
  db: SqliteDatabase;
  store: HistoryStore;
  clock: ReturnType<typeof fakeClock>;
}

export function feed(records: JournalRecord[], clock = fakeClock()): Fed {
  const db = driver!.open(':memory:');
  migrate(db, clock);
  const store = createHistoryStore(db, { clock });
  records.forEach((r) => store.apply(r));
  return { db, store, clock };
}

/**
 * Stream one (T0, an hour): viewers 10 and 11 chat, 12 follows. Stream two (T1, two hours), scripted so each
 * list has a known answer: see the expectations in recap.test.ts.
 */
export function twoStreams(): JournalRecord[] {
  const chat = (id: string, userId: number, atMs: number) => events.chat(id, userId, atMs);
  const lineTwice = chat('s2-dup', 13, T1 + 5 * MIN + 2_000);
  return [
    events.live(T0),
    chat('s1-a', 10, T0 + MIN),
    chat('s1-b', 11, T0 + 2 * MIN),
    events.follow(12, T0 + 3 * MIN),
    events.offline(T0, T0 + 60 * MIN),

    events.live(T1, T1, 'Evening stream'),
    events.follow(20, T1 + MIN),
    events.follow(21, T1 + 2 * MIN),
    events.follow(20, T1 + 3 * MIN),
    events.sub(22, 1, T1 + 4 * MIN),
    events.sub(10, 6, T1 + 4 * MIN + 30_000, 'channel.subscription.renewal'),
    events.gifts(23, [30, 31, 32, 33, 34], T1 + 6 * MIN),
    events.gifts(null, [35, 36, 37], T1 + 7 * MIN),
    events.gifts(23, [38, 39], T1 + 8 * MIN),
    events.kicks(10, 100, T1 + 9 * MIN),
    events.kicks(12, 500, T1 + 9 * MIN + 10_000),
    events.kicks(10, 50, T1 + 10 * MIN),
    more.redemption('red-1', 13, 'Hydrate', 'pending', T1 + 11 * MIN),
    more.redemption('red-1', 13, 'Hydrate', 'accepted', T1 + 11 * MIN, T1 + 12 * MIN),
    more.redemption('red-2', 12, 'Hydrate', 'accepted', T1 + 13 * MIN),
    more.redemption('red-3', 10, 'Song request', 'rejected', T1 + 14 * MIN),
    events.ban(14, T1 + 15 * MIN),
    more.timeout(15, T1 + 16 * MIN, 10),
    more.late(events.sub(24, 2, T1 + 17 * MIN), 95_000),
    chat('s2-a', 10, T1 + 10_000),
    chat('s2-b', 12, T1 + 20_000),
    chat('s2-c', 13, T1 + 30_000),
    ...[1, 2, 3, 4].map((i) => chat(`s2-p${i}`, 12, T1 + 5 * MIN + i * 1_000)),
    socketCopy(lineTwice),
    lineTwice,
    chat('s2-z', 16, T1 + 30 * MIN),
    events.offline(T1, T1 + 120 * MIN),
  ];
}

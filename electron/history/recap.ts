/**
 * The recap of one stream, read from the history store ([history](../../docs/history.md#the-recap)): who
 * followed, subscribed, gifted, sent KICKs and redeemed, who chatted for the first time and who came back, the
 * figures, and per-minute series for the charts. A pure query: it reads the database and changes nothing.
 *
 * Chat is counted in SQL (per minute, per chatter) so a 12-hour stream of half a million lines never becomes
 * half a million objects; the other events of one stream (thousands) are read once and grouped here.
 */
import type { ModAction } from '../../shared/views';
import type { SqliteDatabase, SqliteValue } from './sqlite-driver';
import type { StreamChange, StreamSummary } from './history-store';
import type { StreamChatCounts } from './history-rollups';
import { createRollupQueries } from './history-rollups';
import { AD_BREAK_RECORD_TYPE } from './ad-breaks';
import { countsAsSupport } from './support-amounts';

const MINUTE_MS = 60_000;
/** At most this many points per series: a stream of several days gets wider buckets, never a huge array. */
export const MAX_SERIES_POINTS = 1_440;

export interface RecapViewer {
  userId: number;
  username: string;
}

export interface Recap {
  stream: StreamSummary & { changes: StreamChange[] };
  /** Each viewer once, at their first follow in the stream. */
  followers: (RecapViewer & { atMs: number })[];
  newSubscribers: (RecapViewer & { months: number; atMs: number })[];
  renewedSubscribers: (RecapViewer & { months: number; atMs: number })[];
  /** Most subs first; `userId` null is every anonymous gift together. */
  gifters: { userId: number | null; username: string | null; subs: number; gifts: number }[];
  /** Most KICKs first. */
  kicks: (RecapViewer & { kicks: number; gifts: number })[];
  /** Most redeemed first; a redemption Kick announced twice (pending, then accepted) counts once. */
  redemptions: { reward: string; count: number; rejected: number }[];
  /** First seen in this stream; most messages first. */
  newChatters: (RecapViewer & { messages: number })[];
  /** Seen before this stream began (in an earlier stream, or between streams); most messages first. */
  returningChatters: (RecapViewer & { messages: number })[];
  figures: RecapFigures;
  series: RecapSeries;
}

export interface RecapFigures {
  messages: number;
  /** The busiest minute from the stream's start; null without chat. */
  peakPerMinute: { count: number; atMs: number } | null;
  /** Kick's ban events in the stream, by anyone: bans for good and timeouts. */
  bans: number;
  timeouts: number;
  /** From Greenroom's mod log when given (the store does not keep it): actions taken through Greenroom. */
  greenroomActions: number | null;
  automodActions: number | null;
  /** Ad breaks Greenroom ran and Kick accepted in the stream (Kick sends no event for one; `ad-breaks.ts`). */
  adBreaks: number;
  /** Their seconds together. */
  adBreakSeconds: number;
  /** The longest time from Kick's time for an event to Greenroom receiving it. */
  worstWebhookLag: { ms: number; type: string; atMs: number } | null;
  /** True when chat lines of this stream were already deleted after the retention days: chat figures are 0. */
  chatPruned: boolean;
}

export interface RecapSeries {
  startMs: number;
  /** One minute, or wider for a stream too long for `MAX_SERIES_POINTS` minutes. */
  bucketMs: number;
  chat: number[];
  follows: number[];
  /** New, renewed and gifted subs. */
  subs: number[];
  kicks: number[];
}

export interface RecapOptions {
  /** Greenroom's mod log (`ModLogStore.load()`), for the actions Kick sends no event for. */
  modLog?: readonly ModAction[];
}

interface EventRecord {
  type: string;
  atMs: number;
  receivedAtMs: number;
  userId: number | null;
  username: string | null;
  amount: number;
  /** The event's small JSON object as stored, for the types in `DETAIL_READ` (null for the others). */
  detail: string | null;
}

/** The only types whose detail the recap reads: a gift's giftees or a KICK's message never leave the database. */
const DETAIL_READ = ["'channel.reward.redemption.updated'", "'moderation.banned'"].join(', ');

/** Event types whose time is a stream's own (start, end, a title), not a delivery: no webhook lag. */
const NOT_LAG = new Set(['livestream.status.updated', 'livestream.metadata.updated', AD_BREAK_RECORD_TYPE]);

export interface RecapQueries {
  /** The recap of the stream that started at `streamId` (Kick's `started_at` in ms); null if unknown. */
  recap(streamId: number, options?: RecapOptions): Recap | null;
}

export function createRecapQueries(db: SqliteDatabase): RecapQueries {
  const rollups = createRollupQueries(db);
  const sql = {
    stream: db.prepare('SELECT * FROM streams WHERE started_at_ms = ?'),
    changes: db.prepare('SELECT at_ms, title, category FROM stream_changes WHERE stream_id = ? ORDER BY at_ms, id'),
    // Column by column, one JSON text each, in (time, id) order from the (stream, time) index: thousands of events
    // parse as seven flat arrays in a fraction of the time a row object each takes to build, and leave less garbage.
    events: db.prepare(
      `SELECT json_group_array(id) AS id, json_group_array(type) AS type, json_group_array(at_ms) AS at,
         json_group_array(received_at_ms) AS received, json_group_array(user_id) AS user,
         json_group_array(username) AS name, json_group_array(amount) AS amount,
         json_group_array(CASE WHEN type IN (${DETAIL_READ}) THEN detail END) AS detail
       FROM (SELECT * FROM events WHERE stream_id = ? ORDER BY at_ms, id)`,
    ),
    /** The last line's time, in the (stream, time) index: the end of a stream still open. */
    chatLast: db.prepare('SELECT max(at_ms) AS at FROM chat_lines WHERE stream_id = ?'),
    prunedBefore: db.prepare("SELECT value FROM meta WHERE name = 'chat_pruned_before_ms'"),
  };

  return {
    recap(streamId, options = {}) {
      const row = sql.stream.get(streamId);
      if (!row) {
        return null;
      }
      const stream = {
        startedAtMs: Number(row.started_at_ms),
        endedAtMs: row.ended_at_ms == null ? null : Number(row.ended_at_ms),
        seenFromMs: Number(row.seen_from_ms),
        title: String(row.title),
        category: row.category == null ? null : String(row.category),
        changes: sql.changes.all(streamId).map((r) => ({
          atMs: Number(r.at_ms),
          title: String(r.title),
          category: r.category == null ? null : String(r.category),
        })),
      };
      const events = eventsFrom(sql.events.get(streamId));
      let lastActivity = Math.max(stream.startedAtMs, Number(sql.chatLast.get(streamId)?.at ?? 0));
      events.forEach((e) => (lastActivity = Math.max(lastActivity, e.atMs)));
      const endMs = stream.endedAtMs ?? lastActivity;
      const series = emptySeries(stream.startedAtMs, endMs);
      // Seen before the stream began, to the whole second: the live socket dates a line in whole seconds, so a
      // chatter it brought in the stream's first second would otherwise be "seen" before Kick's start
      // ([the recap](../../docs/history.md#the-recap)).
      const chat = rollups.streamChat(streamId, Math.floor(stream.startedAtMs / 1000) * 1000);
      const perMinute = perMinuteFrom(chat.minutes, stream.startedAtMs, endMs);
      const { newChatters, returningChatters } = chattersFrom(chat.chatters);
      const pruned = Number(sql.prunedBefore.get()?.value ?? 0);

      let peak: RecapFigures['peakPerMinute'] = null;
      let messages = 0;
      for (const [minute, n] of perMinute) {
        messages += n;
        add(series, series.chat, stream.startedAtMs + minute * MINUTE_MS, n);
        if (!peak || n > peak.count) {
          peak = { count: n, atMs: stream.startedAtMs + minute * MINUTE_MS };
        }
      }
      return {
        stream,
        ...eventLists(events, series),
        newChatters,
        returningChatters,
        figures: {
          messages,
          peakPerMinute: peak,
          ...banCounts(events),
          ...modLogCounts(options.modLog, stream.startedAtMs, stream.endedAtMs),
          ...adBreakCounts(events),
          worstWebhookLag: worstLag(events),
          chatPruned: pruned > stream.startedAtMs,
        },
        series,
      };
    },
  };
}

/**
 * Ties in code-unit order: `localeCompare` costs a third of a recap with a hundred thousand chatters, and a list
 * of names needs an order that is stable, not a language's.
 */
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const byMessages = (a: { messages: number; username: string }, b: { messages: number; username: string }): number =>
  b.messages - a.messages || byName(a.username, b.username);

/**
 * [minute from the start, lines] for each minute with chat, ascending. Lines Kick dated before the start or after
 * the end count in the first or last minute, as on the chart.
 */
function perMinuteFrom(minutes: StreamChatCounts['minutes'], startMs: number, endMs: number): [number, number][] {
  const last = Math.floor(Math.max(0, endMs - startMs) / MINUTE_MS);
  const counts = new Map<number, number>();
  for (const [minute, n] of minutes) {
    const at = Math.min(last, Math.max(0, minute));
    counts.set(at, (counts.get(at) ?? 0) + n);
  }
  return [...counts].sort((a, b) => a[0] - b[0]);
}

/** The chatters, new and returning, each list most messages first. */
function chattersFrom(chatters: StreamChatCounts['chatters']): Pick<Recap, 'newChatters' | 'returningChatters'> {
  const { userIds, usernames, messages, seenBefore } = chatters;
  const newChatters: Recap['newChatters'] = [];
  const returningChatters: Recap['returningChatters'] = [];
  for (let i = 0; i < userIds.length; i++) {
    const chatter = { userId: userIds[i]!, username: usernames[i]!, messages: messages[i]! };
    (seenBefore[i] === 1 ? returningChatters : newChatters).push(chatter);
  }
  return { newChatters: newChatters.sort(byMessages), returningChatters: returningChatters.sort(byMessages) };
}

/** The events from their columns, in Kick's time order (then the order they were stored). */
function eventsFrom(row: Record<string, SqliteValue> | undefined): EventRecord[] {
  const column = <T>(name: string): T[] => JSON.parse(String(row?.[name] ?? '[]')) as T[];
  const ids = column<number>('id');
  const types = column<string>('type');
  const at = column<number>('at');
  const received = column<number>('received');
  const users = column<number | null>('user');
  const names = column<string | null>('name');
  const amounts = column<number | null>('amount');
  const details = column<string | null>('detail');
  const events: (EventRecord & { id: number })[] = [];
  for (let i = 0; i < ids.length; i++) {
    events.push({
      id: ids[i]!,
      type: types[i]!,
      atMs: at[i]!,
      receivedAtMs: received[i]!,
      userId: users[i] ?? null,
      username: names[i] ?? null,
      amount: amounts[i] ?? 0,
      detail: details[i] ?? null,
    });
  }
  // The subquery's order is how SQLite aggregates in practice, not a promise: checked in one pass, sorted if not.
  const ordered = events.every((e, i) => i === 0 || byTime(events[i - 1]!, e) <= 0);
  return ordered ? events : events.sort(byTime);
}

const byTime = (a: { atMs: number; id: number }, b: { atMs: number; id: number }): number =>
  a.atMs - b.atMs || a.id - b.id;

function parseDetail(value: string | null): Record<string, unknown> {
  if (typeof value !== 'string') {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function emptySeries(startMs: number, endMs: number): RecapSeries {
  const minutes = Math.floor(Math.max(0, endMs - startMs) / MINUTE_MS) + 1;
  const bucketMs = Math.ceil(minutes / MAX_SERIES_POINTS) * MINUTE_MS;
  const points = Math.ceil(minutes / (bucketMs / MINUTE_MS));
  const zeros = () => new Array<number>(points).fill(0);
  return { startMs, bucketMs, chat: zeros(), follows: zeros(), subs: zeros(), kicks: zeros() };
}

/** Adds to the bucket of `atMs`; a time before the start or after the end (Kick's clock) goes to the edge. */
function add(series: RecapSeries, values: number[], atMs: number, n: number): void {
  const index = Math.floor((atMs - series.startMs) / series.bucketMs);
  values[Math.min(values.length - 1, Math.max(0, index))]! += n;
}

function eventLists(
  events: EventRecord[],
  series: RecapSeries,
): Pick<Recap, 'followers' | 'newSubscribers' | 'renewedSubscribers' | 'gifters' | 'kicks' | 'redemptions'> {
  const followers = new Map<number, Recap['followers'][number]>();
  const subs = {
    new: new Map<number, Recap['newSubscribers'][number]>(),
    renewal: new Map<number, Recap['newSubscribers'][number]>(),
  };
  const gifters = new Map<number | null, Recap['gifters'][number]>();
  const kicks = new Map<number, Recap['kicks'][number]>();
  /**
   * One redemption: Kick's redemption id, the same in each status Kick sends; rows kept before the id was
   * (no `id`) by its viewer, reward and Kick's `redeemed_at`.
   */
  const redemptions = new Map<string, { reward: string; status: unknown }>();
  for (const e of events) {
    // An amount no one could give is no support: in no list and no chart (`support-amounts.ts`).
    if (!countsAsSupport(e.type, e.amount)) {
      continue;
    }
    const viewer = e.userId !== null && e.username !== null ? { userId: e.userId, username: e.username } : null;
    switch (e.type) {
      case 'channel.followed':
        // A viewer who unfollows and follows again is one new follower, in the list and on the chart.
        if (viewer && !followers.has(viewer.userId)) {
          followers.set(viewer.userId, { ...viewer, atMs: e.atMs });
          add(series, series.follows, e.atMs, 1);
        }
        break;
      case 'channel.subscription.new':
      case 'channel.subscription.renewal': {
        const list = e.type === 'channel.subscription.new' ? subs.new : subs.renewal;
        if (viewer) {
          const before = list.get(viewer.userId);
          list.set(viewer.userId, {
            ...viewer,
            months: Math.max(before?.months ?? 0, e.amount),
            atMs: before?.atMs ?? e.atMs,
          });
        }
        add(series, series.subs, e.atMs, 1);
        break;
      }
      case 'channel.subscription.gifts': {
        const before = gifters.get(viewer?.userId ?? null) ?? {
          userId: viewer?.userId ?? null,
          username: viewer?.username ?? null,
          subs: 0,
          gifts: 0,
        };
        gifters.set(before.userId, { ...before, subs: before.subs + e.amount, gifts: before.gifts + 1 });
        add(series, series.subs, e.atMs, e.amount);
        break;
      }
      case 'kicks.gifted':
        if (viewer) {
          const before = kicks.get(viewer.userId) ?? { ...viewer, kicks: 0, gifts: 0 };
          kicks.set(viewer.userId, { ...before, kicks: before.kicks + e.amount, gifts: before.gifts + 1 });
        }
        add(series, series.kicks, e.atMs, e.amount);
        break;
      case 'channel.reward.redemption.updated': {
        const detail = parseDetail(e.detail);
        const reward = typeof detail.reward === 'string' ? detail.reward : '';
        const key = typeof detail.id === 'string' ? detail.id : JSON.stringify([e.userId, reward, e.atMs]);
        redemptions.set(key, { reward, status: detail.status });
        break;
      }
    }
  }
  const byReward = new Map<string, Recap['redemptions'][number]>();
  for (const { reward, status } of redemptions.values()) {
    const before = byReward.get(reward) ?? { reward, count: 0, rejected: 0 };
    byReward.set(reward, {
      reward,
      count: before.count + 1,
      rejected: before.rejected + (status === 'rejected' ? 1 : 0),
    });
  }
  return {
    followers: [...followers.values()],
    newSubscribers: [...subs.new.values()],
    renewedSubscribers: [...subs.renewal.values()],
    gifters: [...gifters.values()].sort((a, b) => b.subs - a.subs || byName(a.username ?? '', b.username ?? '')),
    kicks: [...kicks.values()].sort((a, b) => b.kicks - a.kicks || byName(a.username, b.username)),
    redemptions: [...byReward.values()].sort((a, b) => b.count - a.count || byName(a.reward, b.reward)),
  };
}

/** An ad break record that did not read is kept without an amount, and counts as none. */
function adBreakCounts(events: EventRecord[]): Pick<RecapFigures, 'adBreaks' | 'adBreakSeconds'> {
  const breaks = events.filter((e) => e.type === AD_BREAK_RECORD_TYPE && e.amount > 0);
  return { adBreaks: breaks.length, adBreakSeconds: breaks.reduce((sum, e) => sum + e.amount, 0) };
}

function banCounts(events: EventRecord[]): Pick<RecapFigures, 'bans' | 'timeouts'> {
  const bans = events.filter((e) => e.type === 'moderation.banned');
  const timeouts = bans.filter((e) => typeof parseDetail(e.detail).expiresAt === 'string').length;
  return { bans: bans.length - timeouts, timeouts };
}

function modLogCounts(
  modLog: readonly ModAction[] | undefined,
  startMs: number,
  endMs: number | null,
): Pick<RecapFigures, 'greenroomActions' | 'automodActions'> {
  if (!modLog) {
    return { greenroomActions: null, automodActions: null };
  }
  // Only actions that happened, taken through Greenroom: another moderator's ban on Kick is counted in `bans`.
  const inStream = modLog.filter(
    (a) => a.ok && !a.elsewhere && a.atMs >= startMs && (endMs === null || a.atMs <= endMs),
  );
  const automod = inStream.filter((a) => a.auto).length;
  return { greenroomActions: inStream.length - automod, automodActions: automod };
}

function worstLag(events: EventRecord[]): RecapFigures['worstWebhookLag'] {
  let worst: RecapFigures['worstWebhookLag'] = null;
  for (const e of events) {
    const ms = e.receivedAtMs - e.atMs;
    if (!NOT_LAG.has(e.type) && ms > (worst?.ms ?? 0)) {
      worst = { ms, type: e.type, atMs: e.atMs };
    }
  }
  return worst;
}

/**
 * Turns journal records into history rows ([history](../../docs/history.md#from-the-journal-to-rows)). Pure: no
 * file, no clock; the only state is the stream open before the record, passed in and handed back. The live
 * path and the rebuild from the journal both call it, so a rebuilt store holds what the live one did.
 *
 * Streams follow Kick's live status: a stream is known by Kick's `started_at`, so a `livestream.status.updated`
 * for a stream already in the store (live when Greenroom opened, or after a restart) joins it rather than
 * starting another; a live status for a later stream while one is open ends the open one (its offline
 * status never came) when the new one started. A status about an older stream (a webhook that came late) ends
 * or starts nothing but that stream: the stream open now stays open.
 *
 * An event belongs to the stream whose span holds Kick's time for it, not to the one open when it arrived: the
 * live socket's chat comes before Kick's live-status webhook, and a webhook minutes behind comes after its
 * stream's offline ([history](../../docs/history.md#which-stream-an-event-belongs-to)). The store answers that
 * from its streams (`StreamAt`); the rows already kept when a stream starts or ends are filed again there.
 */
import type { JournalRecord, KickEvent } from '../webhooks/events/types';
import type { KickEventUser } from '../../shared/kick/events';
import { eventKeyOf } from '../webhooks/events/event-key';
import { parseKickEvent } from '../webhooks/events/parse-event';
import { LIVE_SOCKET_SOURCE } from '../webhooks/dedup/signed-copy';
import { AD_BREAK_RECORD_TYPE, adBreakRow } from './ad-breaks';
import { setAsideImpossible } from './support-amounts';

/** The stream open at a moment: Kick's `started_at`, in ms, is its id. */
export interface OpenStream {
  startedAtMs: number;
}

/** The stream (its Kick `started_at` in ms) whose span holds a moment in Kick's time, or null for none. */
export type StreamAt = (atMs: number) => number | null;

/** How far (in seconds) the live socket's time for a chat line may be from Kick's signed one. */
const SOCKET_SECONDS_OFF = 2;
/**
 * The live socket brings a line as it is written, and is not signed: a time further than this from its arrival is
 * not taken to file it (it could put a line into a past stream's recap); it is filed under the stream open then.
 */
export const SOCKET_TIME_TRUSTED_MS = 10 * 60_000;
/**
 * How far ahead of its arrival Kick's time for an event is believed (clocks differ by seconds, not minutes): a
 * time further ahead is taken as the arrival ([history](../../docs/history.md#times-far-from-arrival)).
 */
export const AHEAD_OF_ARRIVAL_MS = 10 * 60_000;
/** How far ahead of its arrival a viewer's sighting may be dated (`describeEvent`): clocks differ by seconds. */
const SEEN_AHEAD_MS = 60_000;
/**
 * How far behind its arrival Kick's time for an event is believed: far more than Kick ever runs late (it keeps
 * trying a webhook for about a day), and inside the chat's default retention (90 days), so a line dated 1970 is
 * counted as a month old rather than taken for a line already pruned.
 */
export const BEHIND_ARRIVAL_MS = 30 * 24 * 60 * 60_000;

export type StreamOp =
  | {
      op: 'start';
      startedAtMs: number;
      seenFromMs: number;
      title: string;
      category: string | null;
      /** Set when Kick's offline came before the stream's live status: the stream begins already ended. */
      endedAtMs?: number;
    }
  /** `endedAtMs` null: Kick did not say when; the store takes the stream's last activity. */
  /**
   * `byNext`: ended at the next stream's start, not at Kick's own end; its lines from that moment on are the next
   * stream's, to the millisecond (a whole second would keep the next stream's first second in this one).
   */
  | { op: 'end'; startedAtMs: number; endedAtMs: number | null; byNext?: true }
  | { op: 'change'; startedAtMs: number; atMs: number; title: string; category: string | null };

/** What one record adds to a viewer's counts. */
export interface ViewerDelta {
  userId: number;
  username: string;
  atMs: number;
  messages?: number;
  followedAtMs?: number;
  subMonths?: number;
  giftedSubs?: number;
  kicks?: number;
}

/** One row for `events` (kept for good) or `chat_lines` (kept for the retention days). */
export interface HistoryRow {
  table: 'events' | 'chat_lines';
  /** Unique per event: Kick's own id where it has one, else the delivery's message id. */
  key: string;
  type: string;
  atMs: number;
  receivedAtMs: number;
  streamId: number | null;
  userId: number | null;
  username: string | null;
  amount: number | null;
  /** Events: a small JSON object of what the recap needs; chat: the line's text. */
  text: string | null;
  /**
   * Chat: the keys the same line has at the seconds around Kick's time, since the live socket's time for a line
   * can be another second than the signed webhook's (`event-key.ts`); empty for every other row.
   */
  sameLineKeys: string[];
  /** Chat: the line came over the unsigned live socket; the signed webhook's words win over it. */
  fromSocket: boolean;
}

export interface Projection {
  row: HistoryRow;
  /** Applied only when the row is new, so a record seen twice changes nothing the second time. */
  streams: StreamOp[];
  viewers: ViewerDelta[];
  /** The stream open after this record. */
  open: OpenStream | null;
}

/** Kick's live status read at start, outside the journal (the status Greenroom asks Kick for when it opens). */
export interface LiveStatus {
  isLive: boolean;
  startedAtMs: number | null;
  title: string;
  category: string | null;
}

/**
 * Projects one journal record; `open` is the stream open before it, and `streamAt` which stream holds a moment
 * (the store's streams; without it, the open one holds every moment).
 */
export function projectRecord(
  record: JournalRecord,
  open: OpenStream | null,
  streamAt: StreamAt = () => open?.startedAtMs ?? null,
): Projection {
  const event = parseKickEvent(record);
  const eventKey = eventKeyOf(record.type, event.payload);
  const fromSocket = record.subscriptionId === LIVE_SOCKET_SOURCE;
  const { atMs: kickMs, own } = eventTime(event, record);
  const time = !own
    ? 'delivery'
    : fromSocket && Math.abs(kickMs - record.receivedAtMs) > SOCKET_TIME_TRUSTED_MS
      ? 'untrusted'
      : 'kick';
  const atMs = nearArrival(kickMs, record.receivedAtMs);
  const row: HistoryRow = {
    table: 'events',
    key: eventKey === null ? `delivery:${record.messageId}` : `event:${eventKey}`,
    type: record.type,
    atMs,
    receivedAtMs: record.receivedAtMs,
    streamId: streamOf(atMs, time, open, streamAt),
    userId: null,
    username: null,
    amount: null,
    text: null,
    sameLineKeys: [],
    fromSocket,
  };
  const projection: Projection = { row, streams: [], viewers: [], open };
  if (event.kind === 'known') {
    describeEvent(event, projection, streamAt);
  } else if (record.type === AD_BREAK_RECORD_TYPE) {
    Object.assign(row, adBreakRow(record)); // Greenroom's own record of an ad break Kick accepted (`ad-breaks.ts`)
  } else {
    row.text = JSON.stringify({ unreadable: event.reason.slice(0, 200) });
  }
  return projection;
}

/** What Kick's live status, read when Greenroom opens, changes: a stream live then is joined or begun. */
export function projectLiveStatus(status: LiveStatus, open: OpenStream | null, nowMs: number): StreamOp[] {
  if (!status.isLive) {
    return open ? [{ op: 'end', startedAtMs: open.startedAtMs, endedAtMs: null }] : [];
  }
  // A start further ahead than clocks differ is not believed: it would hold every later stream back.
  const startedAtMs =
    status.startedAtMs === null || status.startedAtMs > nowMs + AHEAD_OF_ARRIVAL_MS ? nowMs : status.startedAtMs;
  if (open?.startedAtMs === startedAtMs) {
    return [];
  }
  // The open stream ends where the new one began, as the live-status webhook would end it.
  const ops: StreamOp[] = open
    ? [{ op: 'end', startedAtMs: open.startedAtMs, endedAtMs: startedAtMs, byNext: true }]
    : [];
  ops.push({ op: 'start', startedAtMs, seenFromMs: nowMs, title: status.title, category: status.category });
  return ops;
}

function describeEvent(event: Extract<KickEvent, { kind: 'known' }>, p: Projection, streamAt: StreamAt): void {
  const { row } = p;
  if (setAsideImpossible(event, row)) {
    return; // an amount no one could give counts for no one (`support-amounts.ts`)
  }
  const seen = (user: KickEventUser | null | undefined, extra: Omit<ViewerDelta, 'userId' | 'username' | 'atMs'>) => {
    if (user && !user.is_anonymous && user.user_id !== null && user.username !== null) {
      row.userId = user.user_id;
      row.username = user.username;
      // Seen at Kick's time, the clock the stream's start is on, so "new" or "returning" is told on one clock even
      // when this computer's runs seconds behind; but no more than a minute after it came, so a time Kick put
      // ahead cannot keep a newer name from showing for long.
      const atMs = Math.min(row.atMs, row.receivedAtMs + SEEN_AHEAD_MS);
      p.viewers.push({ userId: user.user_id, username: user.username, atMs, ...extra });
    }
  };
  switch (event.type) {
    case 'chat.message.sent':
      row.table = 'chat_lines';
      row.text = event.payload.content;
      row.sameLineKeys = sameLineKeys(row.key, event.payload.created_at);
      seen(event.payload.sender, { messages: 1 });
      return;
    case 'channel.followed':
      seen(event.payload.follower, { followedAtMs: row.atMs });
      return;
    case 'channel.subscription.new':
    case 'channel.subscription.renewal':
      row.amount = event.payload.duration;
      seen(event.payload.subscriber, { subMonths: event.payload.duration });
      return;
    case 'channel.subscription.gifts': {
      const giftees = event.payload.giftees;
      row.amount = giftees.length;
      row.text = JSON.stringify({ giftees: giftees.map((g) => g.username).filter((name) => name !== null) });
      seen(event.payload.gifter, { giftedSubs: giftees.length });
      return;
    }
    case 'kicks.gifted': {
      const { sender, gift } = event.payload;
      row.amount = gift.amount;
      row.text = JSON.stringify({ name: gift.name, message: gift.message });
      seen({ ...sender, is_anonymous: false }, { kicks: gift.amount });
      return;
    }
    case 'channel.reward.redemption.updated': {
      const { id, redeemer, reward, status } = event.payload;
      row.amount = reward.cost;
      // Kick's redemption id: the same in each status Kick sends, and two redemptions in one second differ by it.
      row.text = JSON.stringify({ reward: reward.title, status, id });
      seen({ ...redeemer, is_anonymous: false }, {});
      return;
    }
    case 'moderation.banned': {
      const { banned_user: user, moderator, metadata } = event.payload;
      // The viewer is who it happened to, not who acted: it is their history, and it is no visit.
      row.userId = user.user_id;
      row.username = user.username;
      row.text = JSON.stringify({
        moderator: moderator.username,
        reason: metadata.reason,
        expiresAt: metadata.expires_at,
      });
      return;
    }
    case 'livestream.status.updated':
      liveStatus(event.payload, p);
      return;
    case 'livestream.metadata.updated': {
      const { title, category } = event.payload.metadata;
      row.text = JSON.stringify({ title, category: category.name });
      // The stream its time falls in: a change Kick sent late is still that stream's.
      const streamId = streamAt(row.atMs);
      if (streamId !== null) {
        p.streams.push({
          op: 'change',
          startedAtMs: streamId,
          atMs: row.atMs,
          title,
          category: category.name,
        });
      }
      return;
    }
  }
}

function liveStatus(
  payload: Extract<KickEvent, { type: 'livestream.status.updated' }>['payload'],
  p: Projection,
): void {
  const { row, open } = p;
  row.text = JSON.stringify({ live: payload.is_live, title: payload.title });
  const startedAtMs = believedStart(timeOf(payload.started_at), row.receivedAtMs);
  if (!payload.is_live) {
    // Offline for the stream it names; without a readable start, for the open one.
    const target = startedAtMs ?? open?.startedAtMs;
    if (target !== undefined) {
      const said = timeOf(payload.ended_at);
      // An end before the start is not believed: Kick did not say when, and the stream's last activity is taken.
      const endedAtMs =
        said === null ? row.atMs : said >= target ? Math.max(target, nearArrival(said, row.receivedAtMs)) : null;
      if (startedAtMs !== null && endedAtMs !== null) {
        // The offline can come before the stream's own live status: the stream is kept as ended, so that live
        // status joins it and never opens it again. A stream already kept is left as it is by this.
        p.streams.push({ ...startOf(startedAtMs, row.receivedAtMs, payload.title), endedAtMs });
      }
      p.streams.push({ op: 'end', startedAtMs: target, endedAtMs });
      row.streamId = target;
      if (target === open?.startedAtMs) {
        p.open = null;
      }
    }
    return;
  }
  const started = startedAtMs ?? row.atMs;
  row.streamId = started;
  if (open && started <= open.startedAtMs) {
    // The open stream again (a restart), or a late copy about an older one: neither starts or ends anything.
    return;
  }
  if (open) {
    p.streams.push({ op: 'end', startedAtMs: open.startedAtMs, endedAtMs: started, byNext: true });
  }
  p.streams.push(startOf(started, row.receivedAtMs, payload.title));
  p.open = { startedAtMs: started };
}

function startOf(startedAtMs: number, seenFromMs: number, title: string): Extract<StreamOp, { op: 'start' }> {
  return { op: 'start', startedAtMs, seenFromMs, title, category: null };
}

/**
 * Kick's start for a stream, or null when it has none or one further ahead of the arrival than clocks differ: a
 * stream dated years ahead would hold back every later stream, whose live status would read as a late copy about
 * an older one. Without a start, live status begins at its arrival and offline ends the open stream.
 */
function believedStart(startedAtMs: number | null, receivedAtMs: number): number | null {
  return startedAtMs !== null && startedAtMs > receivedAtMs + AHEAD_OF_ARRIVAL_MS ? null : startedAtMs;
}

/**
 * Kick's time for an event, kept within a bound of its arrival: a time further ahead is the arrival, a time
 * further behind is a month before it came. A line dated years away would otherwise stretch its stream, its chart
 * and its viewer's "last seen", or be taken for a line already pruned.
 */
function nearArrival(atMs: number, receivedAtMs: number): number {
  if (atMs > receivedAtMs + AHEAD_OF_ARRIVAL_MS) {
    return receivedAtMs;
  }
  return Math.max(atMs, receivedAtMs - BEHIND_ARRIVAL_MS);
}

/**
 * The stream a row is filed under: by Kick's time. An event with only a delivery's time goes under the stream
 * open when it came, and by that time only when none was open: the delivery's time is when Kick sent it, in
 * whole seconds, late when its webhooks run behind. A socket line's time too far from its arrival is not used.
 */
function streamOf(
  atMs: number,
  time: 'kick' | 'delivery' | 'untrusted',
  open: OpenStream | null,
  streamAt: StreamAt,
): number | null {
  const opened = open?.startedAtMs ?? null;
  if (time === 'kick') {
    return streamAt(atMs);
  }
  return time === 'untrusted' ? opened : (opened ?? streamAt(atMs));
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The line's keys at the seconds around Kick's time for it, its own key left out. A chat key is a ULID
 * (`event-key.ts`): 10 characters of the time to the second, then 16 of a hash of the message id, which is the
 * same at every second. So only the time part is written again: hashing the id four more times per line would
 * cost as much as the rest of keeping it.
 */
function sameLineKeys(key: string, createdAt: string | undefined): string[] {
  const ms = timeOf(createdAt);
  const prefix = 'event:';
  if (ms === null || !key.startsWith(prefix) || key.length !== prefix.length + 26) {
    return [];
  }
  const second = Math.floor(ms / 1000) * 1000;
  const hashPart = key.slice(prefix.length + 10);
  const keys: string[] = [];
  for (let off = -SOCKET_SECONDS_OFF; off <= SOCKET_SECONDS_OFF; off++) {
    const at = second + off * 1000;
    if (off !== 0 && at >= 0) {
      keys.push(`${prefix}${ulidTime(at)}${hashPart}`);
    }
  }
  return keys;
}

/** A ULID's 48-bit time part: 10 Crockford base-32 characters. */
function ulidTime(ms: number): string {
  let text = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    text = CROCKFORD[t % 32]! + text;
    t = Math.floor(t / 32);
  }
  return text;
}

/**
 * Kick's own time for the event where the payload has one (`own`), else the delivery's timestamp, else receipt.
 */
function eventTime(event: KickEvent, record: JournalRecord): { atMs: number; own: boolean } {
  if (event.kind === 'known') {
    const p = event.payload as unknown as Record<string, unknown>;
    const own =
      p.created_at ??
      p.redeemed_at ??
      (p.metadata as { created_at?: unknown } | undefined)?.created_at ??
      (event.type === 'livestream.status.updated' ? (p.is_live ? p.started_at : p.ended_at) : undefined);
    const ms = timeOf(own);
    if (ms !== null && typeof own === 'string' && !/\.\d/.test(own)) {
      // A time to the whole second (the live socket's, and some of Kick's payloads): it happened within that
      // second. Dated to its last moment, so an event from the second a stream began falls on the side of the
      // start it was on. Not capped at the arrival: a computer's clock seconds behind Kick's would date every
      // line of a stream's first second before its start (`stream-filing.ts` takes in the end's whole second).
      return { atMs: ms + 999, own: true };
    }
    if (ms !== null) {
      return { atMs: ms, own: true };
    }
  }
  return { atMs: timeOf(record.timestamp) ?? record.receivedAtMs, own: false };
}

function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') {
    return null;
  }
  const ms = Date.parse(value);
  return Number.isSafeInteger(ms) && ms >= 0 ? ms : null;
}

/**
 * One viewer's history as a file, for a ban appeal ([history](../../docs/history.md#one-viewers-export)): what
 * Greenroom knows of them (first and last seen, the counts kept for good, the first follow it saw, the note), every
 * chat line still kept, their moderation history (Kick's ban events and Greenroom's own actions: who, when, why),
 * and their follows, subs, gifts, KICKs and redemptions. CSV for a spreadsheet, JSON for anything else. A pure
 * module: the caller reads the store and the mod log.
 *
 * Everything in the file but the figures is someone else's text (a name, a chat line, a reason, a note), so each CSV
 * cell a spreadsheet could run as a formula is neutralised, and the file name keeps only safe characters of the
 * viewer's name.
 */
import type { ModAction } from '../../shared/views';
import { csvCell, type CsvValue } from './csv-cell';
import type { ChatLineRow, EventRow } from './history-store';
import type { ViewerStoryFull } from './viewer-story';

/** The JSON export's format; a later change to its shape raises it. */
export const VIEWER_EXPORT_VERSION = 2;
export const VIEWER_CSV_HEADER = ['section', 'time', 'what', 'amount', 'by', 'stream', 'text'] as const;
/** The viewer's name in the file name is cut to this many characters (Kick's names are at most 25). */
export const FILE_NAME_NAME_MAX = 40;

export interface ViewerExportInput {
  story: ViewerStoryFull;
  /** The viewer's chat lines in the file (their newest, up to a bound), oldest first. */
  chat: readonly ChatLineRow[];
  /** Every chat line the history keeps for the viewer; more than `chat` holds when the file has only the newest. */
  chatTotal?: number;
  /** Every event the store keeps for the viewer, oldest first (bans included: they are theirs). */
  events: readonly EventRow[];
  /** Greenroom's mod log; only the actions on this viewer are kept. */
  modLog: readonly ModAction[];
  /** The streamer's private note ('' for none). */
  note: string;
  /** Chat lines are kept this many days: older ones are not in the file, and it says so. */
  chatDays: number;
  exportedAtMs: number;
}

export interface ViewerModerationItem {
  atMs: number;
  /** `kick`: Kick's ban event (by anyone); `greenroom`: Greenroom's mod log (its own actions, unbans on Kick). */
  source: 'kick' | 'greenroom';
  what: string;
  /** Who acted, as far as it is known. */
  by: string | null;
  reason: string | null;
  /** A timeout's end; minutes for a timeout through Greenroom. */
  expiresAtMs: number | null;
  minutes: number | null;
}

export interface ViewerEventItem {
  atMs: number;
  what: 'followed' | 'subscribed' | 'resubscribed' | 'gifted subs' | 'sent KICKs' | 'redeemed' | 'other';
  type: string;
  /** Sub months, subs gifted, KICKs, or the reward's cost. */
  amount: number | null;
  streamId: number | null;
  /** The reward's title, the KICKs' message, the names gifted to. */
  text: string | null;
}

export interface ViewerExport {
  version: number;
  exportedAt: string;
  /** Which chat lines the file holds, in words: "all 42 chat lines" or "the newest 100,000 of 1,000,000 chat lines". */
  chatInFile: string;
  /** Every chat line the history keeps for the viewer (the file may hold only the newest). */
  chatLinesKept: number;
  viewer: Omit<ViewerStoryFull, 'moderation'>;
  note: string;
  chatKeptDays: number;
  moderation: ViewerModerationItem[];
  events: ViewerEventItem[];
  chat: { atMs: number; streamId: number | null; text: string }[];
}

/** The export as plain data (the JSON file, and what the CSV is written from). */
export function viewerExport(input: ViewerExportInput): ViewerExport {
  const { moderation: _newest, ...viewer } = input.story;
  const moderation: ViewerModerationItem[] = [
    ...input.events.filter((e) => e.type === 'moderation.banned').map(kickBan),
    ...input.modLog.filter((a) => a.targetUserId === input.story.userId && fromLog(a)).map(greenroomAction),
  ].sort((a, b) => a.atMs - b.atMs);
  return {
    version: VIEWER_EXPORT_VERSION,
    exportedAt: new Date(input.exportedAtMs).toISOString(),
    chatInFile: chatInFile(input.chat.length, input.chatTotal ?? input.chat.length),
    chatLinesKept: Math.max(input.chatTotal ?? 0, input.chat.length),
    viewer,
    note: input.note,
    chatKeptDays: input.chatDays,
    moderation,
    events: input.events.filter((e) => e.type !== 'moderation.banned').map(supportEvent),
    chat: input.chat.map((line) => ({ atMs: line.atMs, streamId: line.streamId, text: line.content })),
  };
}

export function viewerExportJson(input: ViewerExportInput): string {
  return JSON.stringify(viewerExport(input), null, 2);
}

type Cell = CsvValue;

/** One row per fact, moderation entry, event and chat line; RFC 4180 with CRLF line ends. */
export function viewerExportCsv(input: ViewerExportInput): string {
  const data = viewerExport(input);
  const v = data.viewer;
  const rows: Cell[][] = [[...VIEWER_CSV_HEADER]];
  const fact = (what: string, value: Cell, atMs: number | null = null) =>
    rows.push([
      'viewer',
      atMs === null ? null : iso(atMs),
      what,
      typeof value === 'number' ? value : null,
      null,
      null,
      typeof value === 'number' ? null : value,
    ]);
  fact('chat_lines', data.chatInFile);
  fact('name', v.username);
  fact('user_id', v.userId);
  fact('first_seen', null, v.firstSeenMs);
  fact('last_seen', null, v.lastSeenMs);
  fact('messages', v.messages);
  fact('followed_since_as_far_as_greenroom_saw', v.followedAtMs === null ? 'no follow seen' : null, v.followedAtMs);
  fact('greenroom_watched_since', null, v.historySinceMs);
  fact('sub_months', v.subMonths);
  fact('gifted_subs', v.giftedSubs);
  fact('kicks', v.kicks);
  fact('streams_attended', v.streams);
  fact('chat_lines_kept_days', data.chatKeptDays);
  fact('chat_lines_in_this_file', data.chat.length);
  fact('chat_lines_kept', data.chatLinesKept);
  fact('note', data.note);
  for (const m of data.moderation) {
    const what =
      m.minutes !== null
        ? `${m.what} (${m.minutes} min)`
        : m.expiresAtMs !== null
          ? `${m.what} until ${iso(m.expiresAtMs)}`
          : m.what;
    rows.push([`moderation_${m.source}`, iso(m.atMs), what, null, m.by, null, m.reason]);
  }
  for (const e of data.events) {
    rows.push(['event', iso(e.atMs), e.what, e.amount, null, e.streamId === null ? null : iso(e.streamId), e.text]);
  }
  for (const line of data.chat) {
    rows.push([
      'chat',
      iso(line.atMs),
      'message',
      null,
      null,
      line.streamId === null ? null : iso(line.streamId),
      line.text,
    ]);
  }
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Which chat lines the file holds, said at its top: all of them, or the newest of how many. */
export function chatInFile(inFile: number, total: number): string {
  const n = (count: number): string => count.toLocaleString('en-US');
  return total > inFile
    ? `the newest ${n(inFile)} of ${n(total)} chat lines`
    : `all ${n(inFile)} chat line${inFile === 1 ? '' : 's'}`;
}

/**
 * `greenroom-viewer-<name>-<id>-<time>.<ext>`: the name keeps letters, digits, `_` and `-` only (no path, no
 * control or invisible characters, no quotes), cut to a length every system takes; the id keeps two viewers whose
 * names clean up alike apart.
 */
export function viewerExportFileName(username: string, userId: number, atMs: number, format: 'csv' | 'json'): string {
  const name =
    username
      .normalize('NFKC')
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^[_-]+|[_-]+$/g, '')
      .slice(0, FILE_NAME_NAME_MAX)
      .replace(/[_-]+$/, '') || 'viewer';
  const stamp = new Date(atMs).toISOString().slice(0, 16).replace('T', '-').replace(':', '');
  return `greenroom-viewer-${name}-${userId}-${stamp}.${format}`;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function kickBan(e: EventRow): ViewerModerationItem {
  const detail = parseDetail(e.detail);
  const expiresAtMs = typeof detail.expiresAt === 'string' ? Date.parse(detail.expiresAt) : NaN;
  const timeout = Number.isFinite(expiresAtMs);
  return {
    atMs: e.atMs,
    source: 'kick',
    what: timeout ? 'timeout' : 'ban',
    by: typeof detail.moderator === 'string' ? detail.moderator : null,
    reason: typeof detail.reason === 'string' ? detail.reason : null,
    expiresAtMs: timeout ? expiresAtMs : null,
    minutes: null,
  };
}

/**
 * What the mod log adds to Kick's ban events: actions that succeeded through Greenroom (deletions, which Kick
 * announces nowhere, and its own bans and timeouts, whose Kick event is listed too, by the streamer), and unbans
 * seen on Kick. A ban or timeout another moderator gave on Kick is in the log too, but Kick's event already lists it.
 */
function fromLog(a: ModAction): boolean {
  return a.ok && (!a.elsewhere || a.kind === 'unban');
}

function greenroomAction(a: ModAction): ViewerModerationItem {
  const by = a.auto
    ? `auto-moderation (${a.auto.rule})`
    : a.elsewhere
      ? (a.elsewhere.moderator ?? 'a moderator on Kick')
      : 'through Greenroom';
  return {
    atMs: a.atMs,
    source: 'greenroom',
    what: a.kind === 'delete' ? 'message deleted' : a.kind,
    by,
    reason: a.reason ?? a.auto?.reason ?? null,
    expiresAtMs: null,
    minutes: a.minutes ?? null,
  };
}

const EVENT_WORDS: Record<string, ViewerEventItem['what']> = {
  'channel.followed': 'followed',
  'channel.subscription.new': 'subscribed',
  'channel.subscription.renewal': 'resubscribed',
  'channel.subscription.gifts': 'gifted subs',
  'kicks.gifted': 'sent KICKs',
  'channel.reward.redemption.updated': 'redeemed',
};

function supportEvent(e: EventRow): ViewerEventItem {
  const detail = parseDetail(e.detail);
  let text: string | null = null;
  if (e.type === 'channel.reward.redemption.updated') {
    text = [detail.reward, detail.status].filter((s) => typeof s === 'string').join(' — ') || null;
  } else if (e.type === 'kicks.gifted') {
    text = [detail.name, detail.message].filter((s) => typeof s === 'string' && s !== '').join(' — ') || null;
  } else if (e.type === 'channel.subscription.gifts' && Array.isArray(detail.giftees)) {
    text = detail.giftees.filter((s) => typeof s === 'string').join(', ') || null;
  }
  return {
    atMs: e.atMs,
    what: EVENT_WORDS[e.type] ?? 'other',
    type: e.type,
    amount: e.amount,
    streamId: e.streamId,
    text,
  };
}

function parseDetail(value: string | null): Record<string, unknown> {
  if (value === null) {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

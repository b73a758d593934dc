import { z } from 'zod';

/**
 * The stream history as the panel reads it ([history](../docs/history.md)): the past streams with their key
 * figures, one stream's recap, a viewer's story, a search over every viewer the history knows, a recap's export,
 * and whether the history runs at all. Plain types, no code from main: main's queries (electron/history/) return
 * these shapes, and the compiler checks they stay the same (electron/app/app-history.ts).
 *
 * A stream is known by Kick's `started_at` in milliseconds: `streamId` everywhere below.
 */

/** Chat lines are kept this many days by default; counts per viewer are kept for good. */
export const HISTORY_CHAT_DAYS_DEFAULT = 90;
export const HISTORY_CHAT_DAYS_MIN = 1;
export const HISTORY_CHAT_DAYS_MAX = 36_500;
/** The history's settings: how many days chat lines are kept. Counts per viewer are kept for good. */
export interface HistorySettings {
  chatDays: number;
}

const CHAT_DAYS_LIMIT = `chatDays: keep chat lines from ${HISTORY_CHAT_DAYS_MIN} to ${HISTORY_CHAT_DAYS_MAX.toLocaleString('en-US')} days`;

/** Checked in `settings:update` and when the settings file is read; the message names the limit. */
export const historySettingsSchema = z.strictObject({
  chatDays: z
    .int(CHAT_DAYS_LIMIT)
    .min(HISTORY_CHAT_DAYS_MIN, CHAT_DAYS_LIMIT)
    .max(HISTORY_CHAT_DAYS_MAX, CHAT_DAYS_LIMIT),
});

export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { chatDays: HISTORY_CHAT_DAYS_DEFAULT };

/** A viewer search is a name, or part of one: Kick's usernames are at most 25 characters, a little room kept. */
export const HISTORY_SEARCH_MAX = 50;
/** At most this many viewers per search: the panel lists them, it is not an export. */
export const HISTORY_SEARCH_RESULTS_MAX = 50;

/**
 * Whether the history runs. `unavailable` where it cannot (Node without `node:sqlite`, or the store could not be
 * opened): the app runs on without it and says so once, in `message`; `detail` is the technical part behind
 * "Details". `starting` until the store is open and caught up with the journal.
 */
export interface HistoryStatusView {
  state: 'ready' | 'starting' | 'unavailable';
  /** The streamer's words when not ready; null when ready. */
  message: string | null;
  detail: string | null;
  /** Chat lines are kept this many days (the setting). */
  chatDays: number;
  /** The stream open now (Kick says live), or null. */
  liveStreamId: number | null;
}

export interface HistoryStreamSummary {
  /** Kick's start of the stream; also its id. */
  startedAtMs: number;
  endedAtMs: number | null;
  /** When Greenroom first knew the stream was live: later than `startedAtMs` for a stream it joined. */
  seenFromMs: number;
  title: string;
  category: string | null;
}

export interface HistoryStreamChange {
  atMs: number;
  title: string;
  category: string | null;
}

export interface HistoryStreamFigures {
  /** From Kick's start to its end, or to the last activity of a stream still open. */
  durationMs: number;
  messages: number;
  chatters: number;
  followers: number;
  /** New, renewed and gifted. */
  subs: number;
  kicks: number;
}

/** One past stream in the Streams view, newest first. */
export interface HistoryStreamItem {
  startedAtMs: number;
  endedAtMs: number | null;
  title: string;
  category: string | null;
  figures: HistoryStreamFigures;
  /** This stream's figures minus the previous stream's; null for the first stream. */
  comparedWithPrevious: HistoryStreamFigures | null;
}

export interface HistoryViewerRef {
  userId: number;
  username: string;
}

export interface HistoryRecapFigures {
  messages: number;
  /** The busiest minute from the stream's start; null without chat. */
  peakPerMinute: { count: number; atMs: number } | null;
  /** Kick's ban events in the stream, by anyone: bans for good and timeouts. */
  bans: number;
  timeouts: number;
  /** Actions taken through Greenroom (its mod log); null where the log was not read. */
  greenroomActions: number | null;
  automodActions: number | null;
  /** Ad breaks Greenroom ran and Kick accepted in the stream; null where a view kept no count. */
  adBreaks: number | null;
  /** Those ad breaks' seconds together; absent where `adBreaks` is null. */
  adBreakSeconds?: number;
  /** The longest time from Kick's time for an event to Greenroom receiving it. */
  worstWebhookLag: { ms: number; type: string; atMs: number } | null;
  /** Chat lines of this stream were already deleted after the retention days: the chat figures are 0. */
  chatPruned: boolean;
}

/** Per-bucket counts over the stream's time line, for the charts. */
export interface HistoryRecapSeries {
  startMs: number;
  /** One minute, or wider for a very long stream. */
  bucketMs: number;
  chat: number[];
  follows: number[];
  /** New, renewed and gifted subs. */
  subs: number[];
  kicks: number[];
}

/** The recap of one stream. */
export interface HistoryRecapView {
  stream: HistoryStreamSummary & { changes: HistoryStreamChange[] };
  /** Each viewer once, at their first follow in the stream. */
  followers: (HistoryViewerRef & { atMs: number })[];
  newSubscribers: (HistoryViewerRef & { months: number; atMs: number })[];
  renewedSubscribers: (HistoryViewerRef & { months: number; atMs: number })[];
  /** Most subs first; `userId` null is every anonymous gift together. */
  gifters: { userId: number | null; username: string | null; subs: number; gifts: number }[];
  /** Most KICKs first. */
  kicks: (HistoryViewerRef & { kicks: number; gifts: number })[];
  /** Most redeemed first. */
  redemptions: { reward: string; count: number; rejected: number }[];
  /** First seen in this stream; most messages first. */
  newChatters: (HistoryViewerRef & { messages: number })[];
  /** Seen in an earlier stream too; most messages first. */
  returningChatters: (HistoryViewerRef & { messages: number })[];
  figures: HistoryRecapFigures;
  series: HistoryRecapSeries;
  /** The thank-you list, ready to copy ('' when nobody followed, subscribed, gifted or sent KICKs). */
  thankYou: string;
}

export interface HistoryModerationEntry {
  atMs: number;
  /** A timeout has an end; a ban for good has none. */
  kind: 'ban' | 'timeout';
  expiresAtMs: number | null;
  moderator: string | null;
  reason: string | null;
}

/** One viewer's story for the user card. */
export interface HistoryViewerStoryView {
  userId: number;
  username: string;
  firstSeenMs: number;
  lastSeenMs: number;
  messages: number;
  /** The first follow Greenroom saw, not necessarily when they followed (`historySinceMs` says from when). */
  followedAtMs: number | null;
  subMonths: number;
  giftedSubs: number;
  kicks: number;
  streams: number;
  moderation: HistoryModerationEntry[];
  /** Where Greenroom's knowledge starts: a follow before it is one Greenroom could not see. */
  historySinceMs: number;
}

/** One viewer found by a search over the whole history. */
export interface HistoryViewerHit {
  userId: number;
  username: string;
  firstSeenMs: number;
  lastSeenMs: number;
  messages: number;
}

export type HistoryExportFormat = 'csv' | 'json';

/** A recap's export: the panel saves the text as a download under `fileName`. */
export interface HistoryExportView {
  fileName: string;
  mimeType: string;
  text: string;
  /** What the file leaves out, in the streamer's words, e.g. "It holds their newest 100,000 of 1,000,000 chat lines." */
  notice?: string;
}

/**
 * Pushed when the history changed: `streams` when a stream started or ended or gained events (the open lists
 * read again, at most every few seconds while live), `status` when only the status did.
 */
export interface HistoryChangedView {
  what: 'streams' | 'status';
  status: HistoryStatusView;
  /** The stream that just ended, so the panel can offer its recap; null otherwise. */
  endedStreamId: number | null;
}

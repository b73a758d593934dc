/**
 * The chat variables read from the stream history ([chat variables](../../docs/chat-bot.md#chat-variables-from-the-history)):
 * `{followage}` and `{streams}`, in words that are honest about where Greenroom's knowledge starts. Kick keeps no
 * follower list, so a follow Greenroom did not see is never "not following", and a history that does not run here
 * (Node without `node:sqlite`) says so rather than a made-up 0.
 */

import { FOLLOWAGE_UNAVAILABLE, STREAMS_UNAVAILABLE } from '../../shared/chat-bot';

/** What the bot may ask the history (main's port over electron/history/viewer-recall.ts). */
export interface BotHistory {
  /** One chatter, as far as Greenroom saw before `beforeMs`; null when the history does not run or is still opening. */
  recall(userId: number, beforeMs: number): BotViewerRecall | null;
}

export interface BotViewerRecall {
  followedAtMs: number | null;
  historySinceMs: number | null;
  streams: number;
  lastSeenBeforeMs: number | null;
}

/** The fields these variables fill, for a template's filler. */
export const HISTORY_FIELDS = ['followage', 'streams'] as const;

// Said in chat where the history does not run; the Automation tab shows the same words.
export { FOLLOWAGE_UNAVAILABLE, STREAMS_UNAVAILABLE };

const DAY_MS = 24 * 60 * 60 * 1000;

/** `2026-11-27`: a day as everyone reads it in chat, in UTC like Kick's times. */
export function chatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** "3 months", "1 year and 2 months", "5 days", "less than a minute". */
export function durationWords(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (minutes < 1) {
    return 'less than a minute';
  }
  if (minutes < 60) {
    return unit(minutes, 'minute');
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return unit(hours, 'hour');
  }
  const days = Math.floor(ms / DAY_MS);
  if (days < 30) {
    return unit(days, 'day');
  }
  const months = Math.floor(days / 30.44);
  if (months < 12) {
    return unit(months, 'month');
  }
  const years = Math.floor(months / 12);
  return months % 12 === 0 ? unit(years, 'year') : `${unit(years, 'year')} and ${unit(months % 12, 'month')}`;
}

/**
 * `{followage}`: "followed 3 months ago" when Greenroom saw the follow; "following since at least <date> (as far as
 * Greenroom saw)" when the follow it saw is from the moment its knowledge starts, so it may be older; plain words
 * when no follow was seen, naming from when Greenroom watched.
 */
export function followageWords(recall: BotViewerRecall | null, nowMs: number): string {
  if (recall === null) {
    return FOLLOWAGE_UNAVAILABLE;
  }
  const { followedAtMs, historySinceMs } = recall;
  if (followedAtMs === null) {
    return historySinceMs === null
      ? 'no follow seen by Greenroom yet'
      : `no follow seen by Greenroom since ${chatDate(historySinceMs)}`;
  }
  if (historySinceMs !== null && followedAtMs <= historySinceMs) {
    return `following since at least ${chatDate(followedAtMs)} (as far as Greenroom saw)`;
  }
  return `followed ${durationWords(nowMs - followedAtMs)} ago`;
}

/** `{streams}`: the streams attended as Greenroom saw them. */
export function streamsWords(recall: BotViewerRecall | null): string {
  return recall === null ? STREAMS_UNAVAILABLE : String(recall.streams);
}

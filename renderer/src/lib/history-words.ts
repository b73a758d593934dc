/**
 * The stream history in a streamer's words ([history](../../../docs/history.md#in-the-panel)): a stream's length,
 * each figure beside the previous stream's, and a viewer's story on the user card. Pure, so tests read the words.
 */
import type { HistoryStreamFigures, HistoryViewerStoryView } from '../../../shared/history';
import { plural } from '../../../shared/plural';
import { formatCount } from './format';

const pad = (n: number): string => String(n).padStart(2, '0');

/** `2026-11-27 14:05`: a day and a time, for streams and sightings that may be months old. */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `2026-11-27`. */
export function formatDate(ms: number): string {
  return formatDateTime(ms).slice(0, 10);
}

/** `3 h 05 min`, `42 min`, `less than a minute`. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) {
    return 'less than a minute';
  }
  const h = Math.floor(minutes / 60);
  return h === 0 ? `${minutes} min` : `${h} h ${pad(minutes % 60)} min`;
}

/** The figures a stream row shows, in order, with their words. */
export const STREAM_FIGURES: readonly { key: keyof HistoryStreamFigures; label: string }[] = [
  { key: 'durationMs', label: 'Length' },
  { key: 'messages', label: 'Messages' },
  { key: 'chatters', label: 'Chatters' },
  { key: 'followers', label: 'New followers' },
  { key: 'subs', label: 'Subs' },
  { key: 'kicks', label: 'KICKs' },
];

/** One figure's value as shown. */
export function figureText(key: keyof HistoryStreamFigures, value: number): string {
  return key === 'durationMs' ? formatDuration(value) : formatCount(value);
}

/** `+12`, `−3`, `same`: a figure beside the previous stream's; null for the first stream. */
export function deltaText(key: keyof HistoryStreamFigures, delta: number | null): string | null {
  if (delta === null) {
    return null;
  }
  if (delta === 0) {
    return 'same';
  }
  const sign = delta > 0 ? '+' : '−';
  const size = Math.abs(delta);
  if (key === 'durationMs' && size < 60_000) {
    // "+less than a minute" read as a sentence cut off.
    return `${sign}<1 min`;
  }
  return `${sign}${key === 'durationMs' ? formatDuration(size) : formatCount(size)}`;
}

/** The line a delta reads as for a screen reader and a tooltip: "12 more than the stream before". */
export function deltaTitle(key: keyof HistoryStreamFigures, delta: number): string {
  if (delta === 0) {
    return 'the same as the stream before';
  }
  const size = key === 'durationMs' ? formatDuration(Math.abs(delta)) : formatCount(Math.abs(delta));
  if (key === 'durationMs') {
    return `${size} ${delta > 0 ? 'longer' : 'shorter'} than the stream before`;
  }
  return `${size} ${delta > 0 ? 'more' : 'fewer'} than the stream before`;
}

/** One line of a viewer's story: what, and its value. */
export interface StoryLine {
  label: string;
  value: string;
}

/**
 * A viewer's story on the user card. "Followed" says where Greenroom's knowledge starts: Kick keeps no follower
 * list, so a follow Greenroom saw is "since" that day "as far as Greenroom saw", and none seen is not "never".
 */
export function storyLines(story: HistoryViewerStoryView): StoryLine[] {
  const since = formatDate(story.historySinceMs);
  const followed =
    story.followedAtMs === null
      ? `No follow seen (Greenroom has watched since ${since})`
      : story.followedAtMs <= story.historySinceMs
        ? // Seen following the moment Greenroom started watching: the follow may be older.
          `Since at least ${since} (when Greenroom started watching)`
        : formatDate(story.followedAtMs) === since
          ? // Seen following later on Greenroom's first day: the same date twice read as a slip.
            `Since ${since}, as far as Greenroom saw`
          : `Since ${formatDate(story.followedAtMs)}, as far as Greenroom saw (it has watched since ${since})`;
  return [
    { label: 'First seen', value: formatDateTime(story.firstSeenMs) },
    { label: 'Followed', value: followed },
    { label: 'Subscribed', value: story.subMonths === 0 ? 'Not seen' : plural(story.subMonths, 'month') },
    { label: 'Gifted subs', value: formatCount(story.giftedSubs) },
    { label: 'KICKs', value: formatCount(story.kicks) },
    { label: 'Messages', value: formatCount(story.messages) },
    { label: 'Streams attended', value: formatCount(story.streams) },
    { label: 'Last seen', value: formatDateTime(story.lastSeenMs) },
    { label: 'Bans and timeouts', value: moderationText(story) },
  ];
}

/** `1 ban, 2 timeouts; the last on 2026-11-20`: Kick's bans and timeouts of the viewer, by anyone, kept for good. */
function moderationText(story: HistoryViewerStoryView): string {
  const entries = story.moderation;
  if (entries.length === 0) {
    return 'None seen';
  }
  const bans = entries.filter((e) => e.kind === 'ban').length;
  const parts = [
    bans > 0 ? plural(bans, 'ban') : null,
    bans < entries.length ? plural(entries.length - bans, 'timeout') : null,
  ];
  const last = Math.max(...entries.map((e) => e.atMs));
  return `${parts.filter((p) => p !== null).join(', ')}; the last on ${formatDate(last)}`;
}

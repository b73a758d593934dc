import { describe, expect, it } from 'vitest';
import { deltaText, deltaTitle, formatDuration, storyLines } from '../../../../renderer/src/lib/history-words';
import {
  bucketWords,
  chartData,
  chartRange,
  chartSummary,
  chartTimeLabels,
} from '../../../../renderer/src/lib/recap-chart';
import { formatClock } from '../../../../renderer/src/lib/format';
import { DAY, START, recap, story } from '../components/history-fixtures';

describe('history words', () => {
  it('says how long a stream ran', () => {
    expect(formatDuration(30_000)).toBe('less than a minute');
    expect(formatDuration(42 * 60_000)).toBe('42 min');
    expect(formatDuration(3 * 3_600_000 + 5 * 60_000)).toBe('3 h 05 min');
  });

  it('compares a figure with the stream before, with no comparison for the first', () => {
    expect(deltaText('messages', null)).toBeNull();
    expect(deltaText('messages', 0)).toBe('same');
    expect(deltaText('messages', 1_200)).toBe('+1,200');
    expect(deltaText('kicks', -5)).toBe('−5');
    expect(deltaText('durationMs', -30 * 60_000)).toBe('−30 min');
    // Under a minute longer reads as a figure, not "+less than a minute".
    expect(deltaText('durationMs', 41_000)).toBe('+<1 min');
    expect(deltaTitle('durationMs', -30 * 60_000)).toBe('30 min shorter than the stream before');
    expect(deltaTitle('followers', 1)).toBe('1 more than the stream before');
  });

  it('a sub of none and a follow never seen are said as such, not as zero or never', () => {
    const lines = storyLines(story({ subMonths: 0, followedAtMs: null, historySinceMs: START - 10 * DAY }));
    const of = (label: string) => lines.find((l) => l.label === label)?.value;
    expect(of('Subscribed')).toBe('Not seen');
    expect(of('Followed')).toMatch(/^No follow seen \(Greenroom has watched since \d{4}-\d\d-\d\d\)$/);
    expect(of('Subscribed')).not.toContain('0');
  });

  it('counts a viewer’s bans and timeouts the history kept, and says when none were seen', () => {
    const of = (lines: ReturnType<typeof storyLines>) => lines.find((l) => l.label === 'Bans and timeouts')?.value;
    expect(of(storyLines(story()))).toBe('None seen');
    const entry = { expiresAtMs: null, moderator: 'mod', reason: null };
    const moderation = [
      { ...entry, atMs: START - DAY, kind: 'timeout' as const },
      { ...entry, atMs: START, kind: 'ban' as const },
      { ...entry, atMs: START - 2 * DAY, kind: 'timeout' as const },
    ];
    expect(of(storyLines(story({ moderation })))).toMatch(/^1 ban, 2 timeouts; the last on \d{4}-\d\d-\d\d$/);
  });
});

describe('recap charts', () => {
  it('gives uPlot seconds on the time line and the counts as sent', () => {
    const series = recap().series;
    expect(chartData(series, 'chat')).toEqual([
      [START / 1000, START / 1000 + 60, START / 1000 + 120, START / 1000 + 180],
      [1, 5, 88, 2],
    ]);
    expect(bucketWords(60_000)).toBe('per minute');
    expect(bucketWords(5 * 60_000)).toBe('per 5 minutes');
  });

  it('sums each measure in words, and says when there was none', () => {
    const series = recap().series;
    // The busiest bucket is named by the minute it covers, on the clock, never "1 min in (per minute)".
    expect(chartSummary(series, 'kicks', 'KICKs')).toBe(
      `1,000 KICKs; busiest minute 1,000, in the minute from ${formatClock(START + 60_000)}.`,
    );
    expect(chartSummary({ ...series, chat: [500] }, 'chat', 'messages')).toBe(
      '500 messages; busiest minute 500, at the start.',
    );
    expect(chartSummary({ ...series, follows: [0, 0] }, 'follows', 'follows')).toBe('No follows.');
  });

  it('spans the x axis over the stream, at least a minute, labelled on the 24-hour clock', () => {
    const series = { ...recap().series, chat: [500] };
    // A stream of 41 seconds: one minute from its start, never uPlot's years.
    expect(chartRange(series, series.startMs + 41_000)).toEqual([series.startMs / 1000, series.startMs / 1000 + 60]);
    expect(chartRange(series, series.startMs + 3_600_000)).toEqual([
      series.startMs / 1000,
      series.startMs / 1000 + 3600,
    ]);
    // Still live: up to the end of the last bucket.
    expect(chartRange({ ...series, chat: [1, 2, 3] }, null)[1]).toBe(series.startMs / 1000 + 180);
    const at = new Date(2026, 10, 27, 17, 42).getTime() / 1000;
    expect(chartTimeLabels([at, at + 3600 * 5])).toEqual(['17:42', '22:42']);
  });
});

/**
 * The recap's charts as uPlot reads them ([history](../../../docs/history.md#in-the-panel)): one small chart per
 * measure over the stream's time line, so each stays readable in a 340 px dock where four lines on one chart
 * would not. Pure: the data and the words; the component draws.
 */
import type { HistoryRecapSeries } from '../../../shared/history';
import { formatClock, formatCount } from './format';

export type ChartKey = 'chat' | 'follows' | 'subs' | 'kicks';

export const CHARTS: readonly { key: ChartKey; title: string; unit: string }[] = [
  { key: 'chat', title: 'Chat', unit: 'messages' },
  { key: 'follows', title: 'Follows', unit: 'follows' },
  { key: 'subs', title: 'Subs', unit: 'subs' },
  { key: 'kicks', title: 'KICKs', unit: 'KICKs' },
];

/** uPlot's aligned data for one measure: the bucket starts in seconds, then the counts. */
export function chartData(series: HistoryRecapSeries, key: ChartKey): [number[], number[]] {
  const values = series[key];
  const xs = values.map((_, i) => (series.startMs + i * series.bucketMs) / 1000);
  return [xs, [...values]];
}

/** "per minute", "per 5 minutes": what one point counts. */
export function bucketWords(bucketMs: number): string {
  const minutes = Math.max(1, Math.round(bucketMs / 60_000));
  return minutes === 1 ? 'per minute' : `per ${minutes} minutes`;
}

/**
 * The x scale's range in seconds: the stream's own [start, end], at least one minute wide. Left to itself uPlot
 * widens a range of one point to years, and a stream under a minute read "2027 2028 2029".
 */
export function chartRange(series: HistoryRecapSeries, endMs: number | null): [number, number] {
  const last = series.startMs + Math.max(1, series.chat.length) * series.bucketMs;
  const end = Math.max(endMs ?? last, series.startMs + 60_000);
  return [series.startMs / 1000, end / 1000];
}

/** The x axis's labels: the 24-hour clock the rest of the panel shows ("17:42"). */
export function chartTimeLabels(splits: number[]): string[] {
  return splits.map((s) => formatClock(s * 1000));
}

/** When the busiest bucket was: "at the start", "in the minute from 17:38", "in the 5 minutes from 17:40". */
function bucketWhen(series: HistoryRecapSeries, at: number): string {
  if (at === 0) {
    return 'at the start';
  }
  const minutes = Math.max(1, Math.round(series.bucketMs / 60_000));
  const from = formatClock(series.startMs + at * series.bucketMs);
  return minutes === 1 ? `in the minute from ${from}` : `in the ${minutes} minutes from ${from}`;
}

/** The chart's text for a screen reader and for a chart that cannot be drawn: its total and its busiest point. */
export function chartSummary(series: HistoryRecapSeries, key: ChartKey, unit: string): string {
  const values = series[key];
  const total = values.reduce((a, b) => a + b, 0);
  if (total === 0) {
    return `No ${unit}.`;
  }
  let at = 0;
  values.forEach((v, i) => {
    if (v > (values[at] ?? 0)) {
      at = i;
    }
  });
  const busiest = series.bucketMs <= 60_000 ? 'busiest minute' : `busiest ${bucketWords(series.bucketMs).slice(4)}`;
  return `${formatCount(total)} ${unit}; ${busiest} ${formatCount(values[at] ?? 0)}, ${bucketWhen(series, at)}.`;
}

/** The file name of a recap's chart: `greenroom-recap-2026-11-27-chart.png`. */
export function chartFileName(streamStartMs: number): string {
  return `greenroom-recap-${new Date(streamStartMs).toISOString().slice(0, 10)}-chart.png`;
}

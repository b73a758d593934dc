/**
 * The recap's charts as uPlot reads them ([history](../../../docs/history.md#in-the-panel)): one small chart per
 * measure over the stream's time line, so each stays readable in a 340 px dock where four lines on one chart
 * would not. Pure: the data and the words; the component draws.
 */
import type { HistoryRecapSeries } from '../../../shared/history';
import { formatCount } from './format';

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
  const minute = Math.round((at * series.bucketMs) / 60_000);
  return `${formatCount(total)} ${unit} in all; the most, ${formatCount(values[at] ?? 0)}, ${minute} min in (${bucketWords(series.bucketMs)}).`;
}

/** The file name of a recap's chart: `greenroom-recap-2026-11-27-chart.png`. */
export function chartFileName(streamStartMs: number): string {
  return `greenroom-recap-${new Date(streamStartMs).toISOString().slice(0, 10)}-chart.png`;
}

/** Small formatters shared by the views. Pure; no locale surprises in tests (24-hour clock, padded). */

import { formatNumber } from '../../../shared/plural';

const pad = (n: number): string => String(n).padStart(2, '0');

/** `14:05` for a chat line. */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `1m`, `10m`, `1h`, `1d`, `1w`, `90m` for a timeout length in minutes. */
export function formatMinutes(minutes: number): string {
  if (minutes % 10080 === 0) {
    return `${minutes / 10080}w`;
  }
  if (minutes % 1440 === 0) {
    return `${minutes / 1440}d`;
  }
  if (minutes % 60 === 0) {
    return `${minutes / 60}h`;
  }
  return `${minutes}m`;
}

/** `4:05` for a countdown in seconds. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

/** `in 3 h 20 min`, `5 min ago`: a relative time for token expiry and deliveries. */
export function formatRelative(targetMs: number, nowMs: number): string {
  const diff = targetMs - nowMs;
  const abs = Math.abs(diff);
  const minutes = Math.round(abs / 60_000);
  let text: string;
  if (minutes < 1) {
    text = 'less than a minute';
  } else if (minutes < 60) {
    text = `${minutes} min`;
  } else if (minutes < 48 * 60) {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    text = m ? `${h} h ${m} min` : `${h} h`;
  } else {
    text = `${Math.round(minutes / 1440)} days`;
  }
  return diff >= 0 ? `in ${text}` : `${text} ago`;
}

/**
 * `5 min ago`, `less than a minute ago`: when something already happened. The panel's `now` ticks every 30 s, so
 * a moment newer than it is still past, never `in less than a minute`.
 */
export function formatAgo(pastMs: number, nowMs: number): string {
  return formatRelative(Math.min(pastMs, nowMs - 1), nowMs);
}

/** `1,234`: numbers read one way everywhere, main's feed text included (shared/plural.ts). */
export function formatCount(n: number): string {
  return formatNumber(n);
}

/** `a, b ,, c` → `['a', 'b', 'c']`: a comma-separated field as the list it edits. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

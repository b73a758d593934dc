/**
 * The replay window on `Kick-Event-Message-Timestamp` (pure). Kick documents no freshness window
 * ([reference §5.3](../../../docs/kick-wire-reference.md#53-signature-algorithm)), so this is our hardening: a captured delivery cannot be replayed days later. It must
 * never reject a genuine delivery, though: Kick delivers minutes to hours late and retries for a day, and
 * whether a retry is re-stamped is undocumented, so the default spans that whole horizon (see
 * `WIRE_ASSUMPTIONS.webhookRetryHorizonSeconds` in `electron/kick/wire-assumptions.ts`). A replay inside it
 * is still caught by the message-id dedup, which remembers ids at least as long.
 */
import { WIRE_ASSUMPTIONS } from '../../kick/wire-assumptions';

/** Default width of the window into the past: 48 hours. */
export const DEFAULT_REPLAY_WINDOW_SECONDS = WIRE_ASSUMPTIONS.webhookRetryHorizonSeconds;

/** How far ahead of our clock a timestamp may be (clock skew between Kick and this machine). */
export const DEFAULT_FUTURE_SKEW_SECONDS = 300;

// RFC 3339 §5.6 date-time: full-date "T" full-time, with a mandatory zone (Z or ±hh:mm).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * Parses an RFC 3339 date-time to epoch milliseconds, or null when it is not one. Stricter than
 * `Date.parse`, which accepts many other shapes and silently rolls Feb 30 over into March. A leap
 * second (`:60`) is read as the last millisecond of that minute.
 * @see https://www.rfc-editor.org/rfc/rfc3339#section-5.6
 */
export function parseRfc3339(value: string): number | null {
  // One chat line's `created_at` is read by the lag, the event's time, the lateness and the alert, one after
  // another: the last few answers are kept, so the pattern runs once per string, not once per reader.
  for (let i = 0; i < RECENT; i++) {
    if (recentText[i] === value) {
      return recentMs[i]!;
    }
  }
  const ms = parseUncached(value);
  recentText[nextSlot] = value;
  recentMs[nextSlot] = ms;
  nextSlot = (nextSlot + 1) % RECENT;
  return ms;
}

/** How many recent answers {@link parseRfc3339} keeps (a pure function of the string, so never stale). */
const RECENT = 4;
const recentText: (string | undefined)[] = new Array<string | undefined>(RECENT).fill(undefined);
const recentMs: (number | null)[] = new Array<number | null>(RECENT).fill(null);
let nextSlot = 0;

function parseUncached(value: string): number | null {
  const m = RFC3339.exec(value);
  if (!m) {
    return null;
  }
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) {
    return null;
  }
  const maxDay = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day > maxDay) {
    return null;
  }
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const offHour = Number(m[10]);
    const offMinute = Number(m[11]);
    if (offHour > 23 || offMinute > 59) {
      return null;
    }
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (offHour * 60 + offMinute);
  }
  const leap = second === 60;
  const ms = leap ? 999 : m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  let utc = Date.UTC(year, month - 1, day, hour, minute, leap ? 59 : second, ms);
  if (year < 100) {
    // Date.UTC maps years 0–99 to 1900–1999.
    const date = new Date(utc);
    date.setUTCFullYear(year, month - 1, day);
    utc = date.getTime();
  }
  return utc - offsetMinutes * 60_000;
}

/** The window the receiver enforces. `windowSeconds` 0 turns the check off (e.g. to replay a capture). */
export interface ReplayWindow {
  windowSeconds: number;
  futureSkewSeconds: number;
}

/** `ok`, or which side of the window the timestamp fell out of. */
export type ReplayVerdict = 'ok' | 'stale' | 'future';

/**
 * Checks a delivery's timestamp against now. Both bounds are inclusive: a delivery exactly
 * `windowSeconds` old still passes.
 */
export function checkReplayWindow(timestampMs: number, nowMs: number, window: ReplayWindow): ReplayVerdict {
  if (window.windowSeconds <= 0) {
    return 'ok';
  }
  if (timestampMs < nowMs - window.windowSeconds * 1000) {
    return 'stale';
  }
  if (timestampMs > nowMs + window.futureSkewSeconds * 1000) {
    return 'future';
  }
  return 'ok';
}

/**
 * A recap as a streamer takes it away ([history](../../docs/history.md#export-and-the-thank-you-list)): a
 * thank-you list to paste in chat or a post, CSV for a spreadsheet, JSON for anything else.
 *
 * The CSV has one row per list item and a `total` row per list, so a spreadsheet's own sum of a section equals
 * its total. Text cells that a spreadsheet would run as a formula (a reward's title is the streamer's free text, a
 * name could be anything Kick lets through) are shown as text, and any cell with a comma, quote or line break is
 * quoted (`csv-cell.ts`).
 */
import { csvCell } from './csv-cell';
import type { Recap, RecapFigures } from './recap';

/** The JSON export's format; a later change to its shape raises it. */
export const RECAP_EXPORT_VERSION = 1;

export const CSV_HEADER = ['section', 'name', 'user_id', 'count', 'amount', 'time'] as const;

type Cell = string | number | null;

export function recapJson(recap: Recap): string {
  return JSON.stringify({ version: RECAP_EXPORT_VERSION, ...recap }, null, 2);
}

/** One CSV row per list item, a `total` row per list, then the figures; RFC 4180, CRLF line ends. */
export function recapCsv(recap: Recap): string {
  const rows: Cell[][] = [[...CSV_HEADER]];
  const section = (
    name: string,
    items: { name: string | null; userId: number | null; count: number; amount: number | null; atMs?: number }[],
  ) => {
    let count = 0;
    let amount = 0;
    for (const item of items) {
      rows.push([
        name,
        item.name ?? 'anonymous',
        item.userId,
        item.count,
        item.amount,
        item.atMs === undefined ? null : iso(item.atMs),
      ]);
      count += item.count;
      amount += item.amount ?? 0;
    }
    rows.push(['total', name, null, count, amount, null]);
  };
  section(
    'follower',
    recap.followers.map((f) => ({ name: f.username, userId: f.userId, count: 1, amount: null, atMs: f.atMs })),
  );
  for (const [name, list] of [
    ['new_subscriber', recap.newSubscribers],
    ['renewed_subscriber', recap.renewedSubscribers],
  ] as const) {
    section(
      name,
      list.map((s) => ({ name: s.username, userId: s.userId, count: 1, amount: s.months, atMs: s.atMs })),
    );
  }
  section(
    'gifter',
    recap.gifters.map((g) => ({ name: g.username, userId: g.userId, count: g.gifts, amount: g.subs })),
  );
  section(
    'kicks',
    recap.kicks.map((k) => ({ name: k.username, userId: k.userId, count: k.gifts, amount: k.kicks })),
  );
  section(
    'redemption',
    recap.redemptions.map((r) => ({ name: r.reward, userId: null, count: r.count, amount: r.rejected })),
  );
  for (const [name, list] of [
    ['new_chatter', recap.newChatters],
    ['returning_chatter', recap.returningChatters],
  ] as const) {
    section(
      name,
      list.map((c) => ({ name: c.username, userId: c.userId, count: c.messages, amount: null })),
    );
  }
  for (const [name, value] of figureCells(recap.figures)) {
    rows.push(['figure', name, null, null, value, null]);
  }
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function figureCells(f: RecapFigures): [string, Cell][] {
  return [
    ['messages', f.messages],
    ['peak_messages_per_minute', f.peakPerMinute?.count ?? 0],
    ['bans', f.bans],
    ['timeouts', f.timeouts],
    ['greenroom_actions', f.greenroomActions],
    ['automod_actions', f.automodActions],
    ['ad_breaks', f.adBreaks],
    ['ad_break_seconds', f.adBreakSeconds],
    ['worst_webhook_lag_ms', f.worstWebhookLag?.ms ?? 0],
  ];
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The marks and embeddings, overrides and isolates of Unicode's bidirectional algorithm. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * A name on one line, read in its own order: line breaks, Unicode's line and paragraph separators and other
 * control characters become spaces (a name cannot start a line of its own), and the bidirectional controls are
 * removed (a name cannot reorder the rest of its line)
 * ([history](../../docs/history.md#export-and-the-thank-you-list)).
 */
const oneLine = (name: string): string =>
  name
    .replace(BIDI_CONTROLS, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim();

/** The thank-you list: one line per kind of support, empty kinds left out, biggest supporters first. */
export function thankYouText(recap: Recap): string {
  const lines: string[] = [];
  const line = (label: string, names: string[]) => {
    if (names.length > 0) {
      lines.push(`${label}: ${names.map(oneLine).join(', ')}`);
    }
  };
  const months = (m: number) => (m === 1 ? '1 month' : `${m} months`);
  line(
    'Gifted subs',
    recap.gifters.map((g) => `${g.username ?? 'anonymous'} (${g.subs})`),
  );
  line(
    'KICKs',
    recap.kicks.map((k) => `${k.username} (${k.kicks})`),
  );
  line(
    'New subscribers',
    recap.newSubscribers.map((s) => `${s.username} (${months(s.months)})`),
  );
  line(
    'Resubscribed',
    recap.renewedSubscribers.map((s) => `${s.username} (${months(s.months)})`),
  );
  line(
    'New followers',
    recap.followers.map((f) => f.username),
  );
  return lines.length === 0 ? '' : ['Thank you for the stream!', ...lines].join('\n');
}

import { afterEach, expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import type { Recap } from '../../../../electron/history/recap';
import { CSV_HEADER, recapCsv, recapJson, thankYouText } from '../../../../electron/history/recap-export';
import { describeSqlite } from './history-fixtures';
import { feed, more, T1, twoStreams } from './recap-fixtures';
import type { Fed } from './recap-fixtures';
import { csvRows } from '../../../helpers/csv-rows';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

function recapOf(extra: ReturnType<typeof twoStreams> = []): Recap {
  const records = twoStreams();
  records.splice(records.length - 1, 0, ...extra);
  fed = feed(records);
  return createRecapQueries(fed.db).recap(T1)!;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describeSqlite('the recap exported', () => {
  it("has CSV totals that equal each section's rows and the recap's own figures", () => {
    const recap = recapOf();
    const [header, ...rows] = csvRows(recapCsv(recap));
    expect(header).toEqual([...CSV_HEADER]);
    const sections = new Set(rows.filter((r) => r[0] !== 'total' && r[0] !== 'figure').map((r) => r[0]!));
    for (const section of sections) {
      const items = rows.filter((r) => r[0] === section);
      const total = rows.find((r) => r[0] === 'total' && r[1] === section)!;
      expect([section, Number(total[3]), Number(total[4])]).toEqual([
        section,
        sum(items.map((r) => Number(r[3]))),
        sum(items.map((r) => Number(r[4] || 0))),
      ]);
    }
    const total = (section: string, col: 3 | 4) => Number(rows.find((r) => r[0] === 'total' && r[1] === section)![col]);
    expect(total('follower', 3)).toBe(recap.followers.length);
    expect(total('new_chatter', 3) + total('returning_chatter', 3)).toBe(recap.figures.messages);
    expect(total('kicks', 4)).toBe(sum(recap.series.kicks));
    expect(total('gifter', 4) + total('new_subscriber', 3) + total('renewed_subscriber', 3)).toBe(
      sum(recap.series.subs),
    );
    expect(total('redemption', 3)).toBe(3);
    const figure = (name: string) => rows.find((r) => r[0] === 'figure' && r[1] === name)![4];
    expect([
      figure('messages'),
      figure('peak_messages_per_minute'),
      figure('ad_breaks'),
      figure('ad_break_seconds'),
    ]).toEqual(['9', '5', '0', '0']);
  });

  it('keeps a reward title a spreadsheet would run as a formula, or that breaks a row, as plain text', () => {
    const hostile = ['=HYPERLINK("http://x","win")', '+1+1', '-2', '@SUM(A1)', 'Song, "loud"\r\nnow'];
    // The same prefix behind a space, an invisible character, or in its full-width form.
    hostile.push(' =1+1', '\u200b=1+1', '\uff1dSUM(A1)', '\n=1');
    const recap = recapOf(
      hostile.map((title, i) => more.redemption(`h-${i}`, 12, title, 'accepted', T1 + 50 * 60_000)),
    );
    const rows = csvRows(recapCsv(recap));
    expect(rows.every((r) => r.length === CSV_HEADER.length)).toBe(true);
    const names = rows.filter((r) => r[0] === 'redemption').map((r) => r[1]);
    expect(names).toEqual(
      expect.arrayContaining([`'=HYPERLINK("http://x","win")`, "'+1+1", "'-2", "'@SUM(A1)", 'Song, "loud"\r\nnow']),
    );
    expect(names.filter((n) => /^[\s\p{Cf}]*[=+\-@\uff1d]/u.test(n!))).toEqual([]);
  });

  it('writes JSON that reads back as the same recap, with its format version', () => {
    const recap = recapOf();
    expect(JSON.parse(recapJson(recap))).toEqual({ version: 1, ...recap });
  });

  it('writes the thank-you list, biggest supporters first, empty kinds left out', () => {
    expect(thankYouText(recapOf())).toBe(
      [
        'Thank you for the stream!',
        'Gifted subs: viewer_23 (7), anonymous (3)',
        'KICKs: viewer_12 (500), viewer_10 (150)',
        'New subscribers: viewer_22 (1 month), viewer_24 (2 months)',
        'Resubscribed: viewer_10 (6 months)',
        'New followers: viewer_20, viewer_21',
      ].join('\n'),
    );
  });

  it('keeps every name of the thank-you list on its own line', () => {
    const recap = recapOf();
    recap.followers[0]!.username = 'evil\nNew followers: fake\u0000';
    expect(thankYouText(recap).split('\n')).toHaveLength(6);
    expect(thankYouText(recap)).toContain('New followers: evil New followers: fake, viewer_21');
  });
});

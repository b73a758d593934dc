import { afterEach, expect, it } from 'vitest';
import { adBreakRecord } from '../../../../electron/app/ad-break-journal';
import { adBreakOfRecord, keptInHistory } from '../../../../electron/history/ad-breaks';
import { projectRecord } from '../../../../electron/history/history-projector';
import { createRecapQueries } from '../../../../electron/history/recap';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';
import { describeSqlite } from './history-fixtures';
import { feed, MIN, T0, T1, twoStreams } from './recap-fixtures';
import type { Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

const adBreak = (id: string, seconds: number, atMs: number): JournalRecord =>
  adBreakRecord({ id, seconds, atMs }, 1).record;

function figures(records: JournalRecord[], streamId = T1) {
  fed = feed(records);
  return createRecapQueries(fed.db).recap(streamId)!.figures;
}

it("reads back the ad break Greenroom journaled, and no other record's body", () => {
  const rec = adBreak('b-1', 60, T1 + MIN);
  expect(rec.type).toBe('greenroom.ad-break');
  expect(adBreakOfRecord(rec)).toEqual({ id: 'b-1', seconds: 60, atMs: T1 + MIN });
  expect(adBreakOfRecord({ ...rec, type: 'greenroom.raid' })).toBeNull();
  expect(adBreakOfRecord({ ...rec, body: '{"ad_break":' })).toBeNull();
  // A hand-edited length past Kick's limit does not read as a break.
  expect(adBreakOfRecord({ ...rec, body: rec.body.replace('"seconds":60', '"seconds":9999') })).toBeNull();
});

it("lets the ad break into the history beside Kick's events, and no other record of Greenroom's own", () => {
  expect(keptInHistory('greenroom.ad-break')).toBe(true);
  expect(keptInHistory('channel.followed')).toBe(true);
  expect(['greenroom.raid', 'greenroom.late-mark', 'made.up'].map(keptInHistory)).toEqual([false, false, false]);
  // Journaled once per break: a retry Kick answers with the same id claims the same key.
  expect(adBreakRecord({ id: 'b-1', seconds: 60, atMs: 1 }, 1).key).toBe(
    adBreakRecord({ id: 'b-1', seconds: 60, atMs: 2 }, 1).key,
  );
});

it('files an ad break as an event row keyed by its id, its seconds as the amount', () => {
  const { row } = projectRecord(adBreak('b-1', 90, T1 + MIN), { startedAtMs: T1 });
  expect(row).toMatchObject({ table: 'events', key: 'ad-break:b-1', type: 'greenroom.ad-break', amount: 90 });
  expect(row.streamId).toBe(T1);
  expect(row.atMs).toBe(T1 + MIN);
});

describeSqlite('ad breaks in the recap', () => {
  it('counts the ad breaks of the stream and their seconds, each id once', () => {
    const f = figures([
      ...twoStreams(),
      adBreak('early', 30, T0 + 10 * MIN),
      adBreak('b-1', 60, T1 + 20 * MIN),
      adBreak('b-2', 90, T1 + 50 * MIN),
      // The same break journaled again (a second copy after a rebuild): one break.
      { ...adBreak('b-2', 90, T1 + 50 * MIN), messageId: 'greenroom:ad-break:b-2-copy' },
    ]);
    expect(f.adBreaks).toBe(2);
    expect(f.adBreakSeconds).toBe(150);
    // Its time is Greenroom's own: no webhook lag is read into it.
    expect(f.worstWebhookLag?.type).toBe('channel.subscription.new');
  });

  it("counts the first stream's break in the first stream only", () => {
    const f = figures([...twoStreams(), adBreak('early', 30, T0 + 10 * MIN), adBreak('b-1', 60, T1 + 20 * MIN)], T0);
    expect(f).toMatchObject({ adBreaks: 1, adBreakSeconds: 30 });
  });

  it('keeps a damaged ad break record without counting it', () => {
    const damaged = { ...adBreak('b-3', 60, T1 + 30 * MIN), body: '{"broadcaster":{"user_id":1}}' };
    const f = figures([...twoStreams(), damaged, adBreak('b-1', 45, T1 + 20 * MIN)]);
    expect(f).toMatchObject({ adBreaks: 1, adBreakSeconds: 45 });
  });
});

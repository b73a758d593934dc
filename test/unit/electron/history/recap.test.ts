import { afterEach, expect, it } from 'vitest';
import { createRecapQueries, MAX_SERIES_POINTS } from '../../../../electron/history/recap';
import type { ModAction } from '../../../../shared/views';
import { describeSqlite, fakeClock } from './history-fixtures';
import { events, feed, MIN, T0, T1, twoStreams } from './recap-fixtures';
import type { Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

function recapOf(records = twoStreams(), streamId = T1, modLog?: ModAction[]) {
  fed = feed(records);
  return createRecapQueries(fed.db).recap(streamId, { modLog });
}

const at = (i: number) => (n: number) => (i === n ? 1 : 0);
const v = (id: number) => ({ userId: id, username: `viewer_${id}` });

describeSqlite('the recap of one stream', () => {
  it('lists each supporter, item by item, as they were fed', () => {
    const r = recapOf()!;
    expect(r.stream).toMatchObject({ startedAtMs: T1, endedAtMs: T1 + 120 * MIN, title: 'Evening stream' });
    expect(r.followers).toEqual([
      { ...v(20), atMs: T1 + MIN },
      { ...v(21), atMs: T1 + 2 * MIN },
    ]);
    expect(r.newSubscribers).toEqual([
      { ...v(22), months: 1, atMs: T1 + 4 * MIN },
      { ...v(24), months: 2, atMs: T1 + 17 * MIN },
    ]);
    expect(r.renewedSubscribers).toEqual([{ ...v(10), months: 6, atMs: T1 + 4 * MIN + 30_000 }]);
    expect(r.gifters).toEqual([
      { ...v(23), subs: 7, gifts: 2 },
      { userId: null, username: null, subs: 3, gifts: 1 },
    ]);
    expect(r.kicks).toEqual([
      { ...v(12), kicks: 500, gifts: 1 },
      { ...v(10), kicks: 150, gifts: 2 },
    ]);
    expect(r.redemptions).toEqual([
      { reward: 'Hydrate', count: 2, rejected: 0 },
      { reward: 'Song request', count: 1, rejected: 1 },
    ]);
  });

  it('tells new chatters from those seen in an earlier stream, counting a line both paths brought once', () => {
    const r = recapOf()!;
    expect(r.newChatters).toEqual([
      { ...v(13), messages: 2 },
      { ...v(16), messages: 1 },
    ]);
    // 12 only followed in the first stream: seen there all the same.
    expect(r.returningChatters).toEqual([
      { ...v(12), messages: 5 },
      { ...v(10), messages: 1 },
    ]);
    const first = createRecapQueries(fed!.db).recap(T0)!;
    expect(first.newChatters.map((c) => c.userId)).toEqual([10, 11]);
    expect(first.returningChatters).toEqual([]);
  });

  it('reports the figures: messages, the busiest minute, bans, the worst webhook lag', () => {
    const r = recapOf()!;
    expect(r.figures).toEqual({
      messages: 9,
      peakPerMinute: { count: 5, atMs: T1 + 5 * MIN },
      bans: 1,
      timeouts: 1,
      greenroomActions: null,
      automodActions: null,
      adBreaks: 0,
      adBreakSeconds: 0,
      worstWebhookLag: { ms: 95_000, type: 'channel.subscription.new', atMs: T1 + 17 * MIN },
      chatPruned: false,
    });
  });

  it('gives per-minute series from the stream start for the charts', () => {
    const { series } = recapOf()!;
    expect(series.startMs).toBe(T1);
    expect(series.bucketMs).toBe(MIN);
    const minutes = Array.from({ length: 121 }, (_, i) => i);
    expect(series.chat).toEqual(minutes.map((i) => ({ 0: 3, 5: 5, 30: 1 })[i] ?? 0));
    expect(series.follows).toEqual(minutes.map((i) => at(i)(1) + at(i)(2)));
    expect(series.subs).toEqual(minutes.map((i) => ({ 4: 2, 6: 5, 7: 3, 8: 2, 17: 1 })[i] ?? 0));
    expect(series.kicks).toEqual(minutes.map((i) => ({ 9: 600, 10: 50 })[i] ?? 0));
  });

  it("counts auto-moderation and Greenroom's own actions from the mod log, in the stream only", () => {
    const action = (id: string, atMs: number, extra: Partial<ModAction> = {}): ModAction => ({
      id,
      kind: 'timeout',
      atMs,
      targetUserId: 40,
      targetUsername: 'viewer_40',
      ok: true,
      ...extra,
    });
    const auto = { rule: 'blocked-terms', reason: 'x', dryRun: false } as unknown as ModAction['auto'];
    const r = recapOf(undefined, T1, [
      action('a', T1 + MIN, { auto }),
      action('b', T1 + 2 * MIN, { auto }),
      action('c', T1 + 3 * MIN),
      action('d', T1 + 4 * MIN, { elsewhere: { moderator: 'mod' } }),
      action('e', T1 + 5 * MIN, { ok: false }),
      action('f', T0 + 5 * MIN, { auto }),
      action('g', T1 + 121 * MIN),
    ])!;
    expect(r.figures).toMatchObject({ greenroomActions: 1, automodActions: 2 });
  });

  it('answers null for a stream it does not hold', () => {
    expect(recapOf(undefined, T1 + 1)).toBeNull();
  });

  it('keeps the series bounded when Kick names an end centuries away, events outside at the edges', () => {
    const records = [
      events.live(T1),
      events.follow(20, T1 - 5 * MIN),
      events.chat('x', 10, T1 + MIN),
      events.offline(T1, Date.UTC(2400, 0, 1)),
    ];
    const { series, followers } = recapOf(records)!;
    expect(series.chat.length).toBeLessThanOrEqual(MAX_SERIES_POINTS);
    expect(series.follows[0]).toBe(1);
    expect(series.chat[0]).toBe(1);
    expect(followers).toEqual([{ ...v(20), atMs: T1 - 5 * MIN }]);
  });

  it('says when the chat of a stream was already deleted after the retention days', () => {
    const clock = fakeClock(T1 + 200 * 24 * 60 * MIN);
    fed = feed(twoStreams(), clock);
    fed.store.prune();
    const r = createRecapQueries(fed.db).recap(T1)!;
    expect(r.figures).toMatchObject({ chatPruned: true, messages: 0, peakPerMinute: null });
    expect(r.kicks).toHaveLength(2);
  });
});

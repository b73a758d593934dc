import { expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import { listStreams } from '../../../../electron/history/streams-list';
import { describeSqlite, events, MIN, T0 } from './history-fixtures';
import { feed } from './recap-fixtures';

describeSqlite('amounts no one could give', () => {
  it('are kept with why, for no viewer and with no amount', () => {
    const fed = feed([
      events.live(T0),
      events.kicks(10, -100_000, T0 + MIN),
      events.sub(11, 0, T0 + MIN),
      events.sub(12, -1, T0 + MIN, 'channel.subscription.renewal'),
      events.gifts(13, [], T0 + MIN),
    ]);
    const kept = fed.store.events().filter((e) => e.type !== 'livestream.status.updated');
    expect(kept.map((e) => [e.type, e.userId, e.amount, JSON.parse(e.detail ?? '{}') as unknown])).toEqual([
      ['kicks.gifted', null, null, { impossible: 'a gift of -100000 KICKs' }],
      ['channel.subscription.new', null, null, { impossible: 'a subscription of 0 months' }],
      ['channel.subscription.renewal', null, null, { impossible: 'a subscription of -1 months' }],
      ['channel.subscription.gifts', null, null, { impossible: 'gifted subs with no one to receive them' }],
    ]);
    for (const userId of [10, 11, 12, 13]) {
      expect(fed.store.viewer(userId)).toBeNull();
    }
  });

  it('kept by an older Greenroom are passed over by the recap and the streams list', () => {
    const fed = feed([events.live(T0), events.kicks(10, 100, T0 + MIN), events.sub(11, 2, T0 + MIN)]);
    // What an older build stored for such events: the viewer and the amount as Kick sent them.
    fed.db.exec(`INSERT INTO events (key, type, at_ms, received_at_ms, stream_id, user_id, username, amount, detail)
      VALUES ('old-1', 'kicks.gifted', ${T0 + MIN}, ${T0 + MIN}, ${T0}, 10, 'viewer_10', -100000, '{}'),
             ('old-2', 'channel.subscription.new', ${T0 + MIN}, ${T0 + MIN}, ${T0}, 12, 'viewer_12', -1, '{}'),
             ('old-3', 'channel.subscription.gifts', ${T0 + MIN}, ${T0 + MIN}, ${T0}, 13, 'viewer_13', 0, '{}')`);
    const recap = createRecapQueries(fed.db).recap(T0)!;
    expect(recap.kicks.map((k) => [k.userId, k.kicks, k.gifts])).toEqual([[10, 100, 1]]);
    expect(recap.newSubscribers.map((s) => [s.userId, s.months])).toEqual([[11, 2]]);
    expect(recap.gifters).toEqual([]);
    expect(recap.series.subs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(listStreams(fed.db)[0]!.figures).toMatchObject({ subs: 1, kicks: 100 });
  });
});

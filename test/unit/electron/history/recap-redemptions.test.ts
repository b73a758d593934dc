import { expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import { describeSqlite } from './history-fixtures';
import { events, feed, MIN, T0 } from './recap-fixtures';

describeSqlite('the recap counts redemptions by Kick id', () => {
  it('counts two redemptions of one reward by one viewer in the same second twice, each status once', () => {
    const at = T0 + MIN;
    const { db } = feed([
      events.live(T0),
      events.redemption('red-1', 7, 'pending', at),
      events.redemption('red-2', 7, 'pending', at),
      // Kick announces the first again when the streamer accepts it: the same redemption.
      events.redemption('red-1', 7, 'accepted', at),
    ]);
    expect(createRecapQueries(db).recap(T0)?.redemptions).toEqual([{ reward: 'Hydrate', count: 2, rejected: 0 }]);
  });
});

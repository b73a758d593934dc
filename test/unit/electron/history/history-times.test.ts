/**
 * Kick's times that cannot be right, held near their arrival ([history](../../../../docs/history.md#times-far-from-arrival)):
 * an offline before its own live status, a start years ahead, an end before its start, chat dated 2200 or 1970.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AHEAD_OF_ARRIVAL_MS,
  BEHIND_ARRIVAL_MS,
  projectLiveStatus,
  projectRecord,
} from '../../../../electron/history/history-projector';
import { listStreams } from '../../../../electron/history/streams-list';
import { describeSqlite, events, MIN, receivedAt, T0 } from './history-fixtures';
import { feed, type Fed } from './recap-fixtures';

const FAR_AHEAD = Date.UTC(2200, 0, 1);
let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

describe('times far from arrival, in the projector', () => {
  it('takes a chat line dated 2200 as its arrival, and one dated 1970 as a day before it', () => {
    const ahead = receivedAt(events.chat('ahead', 10, FAR_AHEAD), T0);
    const p = projectRecord(ahead, { startedAtMs: T0 - MIN });
    expect(p.row.atMs).toBe(T0);
    expect(p.row.streamId).toBe(T0 - MIN);
    expect(p.viewers[0]?.atMs).toBe(T0);
    const behind = projectRecord(receivedAt(events.chat('behind', 10, 1000), T0), null);
    expect(behind.row.atMs).toBe(T0 - BEHIND_ARRIVAL_MS);
    // Within the bounds, Kick's time stands.
    const near = projectRecord(receivedAt(events.chat('near', 10, T0 + AHEAD_OF_ARRIVAL_MS), T0), null);
    expect(near.row.atMs).toBe(T0 + AHEAD_OF_ARRIVAL_MS);
  });

  it('dates a viewer no more than a minute after the line came, so a later line soon names them', () => {
    const p = projectRecord(receivedAt(events.chat('soon', 10, T0 + 5 * MIN), T0), null);
    expect(p.row.atMs).toBe(T0 + 5 * MIN);
    expect(p.viewers[0]?.atMs).toBe(T0 + MIN);
  });

  it("dates a viewer by Kick's clock when this computer's runs seconds behind", () => {
    const p = projectRecord(receivedAt(events.chat('skewed', 10, T0 + 2_500), T0), null);
    expect(p.viewers[0]?.atMs).toBe(T0 + 2_500);
  });

  it('begins a live status dated years ahead at its arrival, and ends the open stream on its offline', () => {
    const live = projectRecord(receivedAt(events.live(FAR_AHEAD), T0), null);
    expect(live.open).toEqual({ startedAtMs: T0 });
    const next = projectRecord(events.live(T0 + 30 * MIN), live.open);
    expect(next.streams.map((op) => op.op)).toEqual(['end', 'start']);
    const offline = projectRecord(receivedAt(events.offline(FAR_AHEAD, FAR_AHEAD + MIN), T0 + MIN), live.open);
    expect(offline.streams).toEqual([{ op: 'end', startedAtMs: T0, endedAtMs: T0 + MIN }]);
    expect(offline.open).toBeNull();
    const status = { isLive: true, startedAtMs: FAR_AHEAD, title: 'On', category: null };
    expect(projectLiveStatus(status, null, T0)).toMatchObject([{ op: 'start', startedAtMs: T0 }]);
  });

  it('does not believe an end before its start', () => {
    const p = projectRecord(events.offline(T0, T0 - 60 * MIN), { startedAtMs: T0 });
    expect(p.streams).toEqual([{ op: 'end', startedAtMs: T0, endedAtMs: null }]);
  });
});

describeSqlite('times far from arrival, in the store', () => {
  it('keeps a stream ended when its offline came first, and files nothing after its end under it', () => {
    const end = T0 + 60 * MIN;
    fed = feed([
      events.chat('before-end', 10, T0 + MIN),
      events.follow(11, end + 5 * MIN),
      receivedAt(events.offline(T0, end), end + 10 * MIN),
      receivedAt(events.live(T0), end + 11 * MIN),
      events.chat('after-end', 12, end + 12 * MIN),
    ]);
    const [stream] = listStreams(fed.db);
    expect(stream).toMatchObject({ startedAtMs: T0, endedAtMs: end });
    expect(stream?.figures).toMatchObject({ messages: 1, followers: 0 });
    expect(fed.store.chatLines().map((l) => [l.userId, l.streamId])).toEqual([
      [10, T0],
      [12, null],
    ]);
  });

  it('keeps a live stream as long as its lines came, not as long as Kick dated them', () => {
    fed = feed([
      events.live(T0),
      receivedAt(events.chat('ahead', 10, FAR_AHEAD, 'hi', 'oldname'), T0 + MIN),
      events.chat('now', 10, T0 + 2 * MIN, 'hello', 'newname'),
    ]);
    expect(listStreams(fed.db)[0]?.figures.durationMs).toBe(2 * MIN);
    expect(fed.store.viewer(10)).toMatchObject({ username: 'newname', messages: 2 });
  });
});

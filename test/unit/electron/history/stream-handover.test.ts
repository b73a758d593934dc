/**
 * One stream hands over to the next (docs/history.md#which-stream-an-event-belongs-to): a stream whose offline
 * never came, or came late, is ended by the next one's live status at the next one's start, and a line from the
 * next stream's first second belongs to it whichever came first, the line or the live status. The same after a
 * restart, where the live status Greenroom reads at start ends the open stream at the next one's start, and Kick's
 * own offline, when it comes, still gives the end.
 */
import { afterEach, expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import { describeSqlite, events, fakeClock, MIN, receivedAt, socketCopy, T0 } from './history-fixtures';
import { feed, type Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

const T1 = T0 + 60 * MIN; // the next stream's start (Kick's started_at, whole second)
const recapOf = (f: Fed, id: number) => createRecapQueries(f.db).recap(id)!;

describeSqlite('a stream ended by the next live status', () => {
  it("files the socket's line from the next stream's first second under the next stream", () => {
    fed = feed([
      events.live(T0),
      events.chat('old', 10, T0 + MIN),
      // B's first second; the socket brings it at once, B's live-status webhook comes 2 s later.
      receivedAt(socketCopy(events.chat('b-first', 20, T1 + 300)), T1 + 400),
      receivedAt(events.live(T1), T1 + 2_000),
    ]);
    expect(fed.store.chatLines().map((l) => [l.userId, l.streamId])).toEqual([
      [10, T0],
      [20, T1],
    ]);
    expect(recapOf(fed, T1).figures.messages).toBe(1);
    expect(recapOf(fed, T0).figures.messages).toBe(1);
    expect(recapOf(fed, T1).newChatters.map((c) => c.userId)).toEqual([20]);
  });

  it("files the signed line (to the ms, 300 ms after B's start) under the next stream", () => {
    fed = feed([
      events.live(T0),
      receivedAt(events.chat('b-signed', 21, T1 + 300), T1 + 500),
      receivedAt(events.live(T1), T1 + 2_000),
    ]);
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual([T1]);
    expect(recapOf(fed, T1).figures.messages).toBe(1);
    expect(recapOf(fed, T0).figures.messages).toBe(0);
  });

  it('files the line the same whichever came first, the line or the live status', () => {
    const line = () => receivedAt(events.chat('b-signed', 21, T1 + 300), T1 + 500);
    fed = feed([events.live(T0), line(), receivedAt(events.live(T1), T1 + 2_000)]);
    const lineFirst = fed.store.chatLines().map((l) => l.streamId);
    fed.store.close();
    fed = feed([events.live(T0), receivedAt(events.live(T1), T1 + 100), line()]);
    expect(lineFirst).toEqual(fed.store.chatLines().map((l) => l.streamId));
    expect(fed.store.viewer(21)?.streams).toBe(1);
  });
});

describeSqlite('a stream that ended in the second the next one began', () => {
  it("files the socket's line from that second alike before or after the next live status", () => {
    // A's offline says it ended at T1; B began at T1 (a quick restart). The socket's line of second T1 came
    // before B's live-status webhook in one run and after it in the other.
    const line = () => receivedAt(socketCopy(events.chat('restart', 30, T1 + 400)), T1 + 500);
    const offline = receivedAt(events.offline(T0, T1), T1 + 100);
    fed = feed([events.live(T0), offline, line(), receivedAt(events.live(T1), T1 + 2_000)]);
    const lineFirst = fed.store.chatLines().map((l) => l.streamId);
    fed.store.close();
    fed = feed([events.live(T0), offline, receivedAt(events.live(T1), T1 + 200), line()]);
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual([T1]);
    expect(lineFirst).toEqual([T1]);
  });
});

const END = T1 - 30_000;
const bLines = () =>
  [1, 2, 3].map((i) => receivedAt(socketCopy(events.chat(`b-${i}`, 20 + i, T1 + i * 5_000)), T1 + i * 5_000 + 100));
const offline = () => receivedAt(events.offline(T0, END), T1 + 5 * MIN);
const nextLive = () => receivedAt(events.live(T1), T1 + 5 * MIN + 1_000);

describeSqlite('the next stream found live at start', () => {
  it("files the socket's lines for it under it, as without the restart", () => {
    fed = feed([events.live(T0), ...bLines(), offline(), nextLive()]);
    const live = fed.store.chatLines().map((l) => l.streamId);
    expect(live).toEqual([T1, T1, T1]);
    expect(fed.store.streams()[0]?.endedAtMs).toBe(END);
    fed.store.close();

    fed = feed([events.live(T0), ...bLines()], fakeClock(T1 + MIN));
    fed.store.observeLiveStatus({ isLive: true, startedAtMs: T1, title: 'Next', category: null }); // the restart
    [offline(), nextLive()].forEach((r) => fed!.store.apply(r));
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual(live);
    expect(fed.store.streams()[0]?.endedAtMs).toBe(END);
    expect(createRecapQueries(fed.db).recap(T1)!.figures.messages).toBe(3);
    expect(createRecapQueries(fed.db).recap(T0)!.figures.messages).toBe(0);
  });
});

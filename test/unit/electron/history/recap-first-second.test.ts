/**
 * A chatter first seen in the stream's first second, by the live socket (whose times are whole seconds), is new,
 * not returning: the socket's time for their line falls before Kick's `started_at` only by the milliseconds the
 * socket leaves out ([the recap](../../../../docs/history.md#the-recap)).
 */
import { afterEach, expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import { describeSqlite, events, socketCopy, T0 } from './history-fixtures';
import { type Fed, feed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

const EARLIER = T0;
const START = T0 + 3_600_000 + 268;

describeSqlite('new and returning chatters in the stream’s first second', () => {
  it('counts a viewer the socket brought 400 ms after the start as new, one seen in an earlier stream as returning', () => {
    const newcomer = events.chat('m-new', 30, START + 400);
    const regular = events.chat('m-regular', 31, START + 500);
    fed = feed([
      events.live(EARLIER),
      events.chat('m-before', 31, EARLIER + 1000),
      events.offline(EARLIER, EARLIER + 60_000),
      events.live(START),
      // The socket first (whole seconds), then Kick's signed copy.
      socketCopy(newcomer),
      socketCopy(regular),
      newcomer,
      regular,
    ]);
    const recap = createRecapQueries(fed.db).recap(START)!;
    expect(recap.figures.messages).toBe(2);
    expect(recap.newChatters.map((c) => c.userId)).toEqual([30]);
    expect(recap.returningChatters.map((c) => c.userId)).toEqual([31]);
  });

  it('still counts a viewer seen between streams, a second or more before the start, as returning', () => {
    fed = feed([
      events.live(EARLIER),
      events.offline(EARLIER, EARLIER + 60_000),
      events.follow(32, START - 1000),
      events.live(START),
      socketCopy(events.chat('m-follower', 32, START + 300)),
    ]);
    const recap = createRecapQueries(fed.db).recap(START)!;
    expect(recap.returningChatters.map((c) => c.userId)).toEqual([32]);
    expect(recap.newChatters).toEqual([]);
  });
});

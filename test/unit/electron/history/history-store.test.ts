import { afterEach, expect, it } from 'vitest';
import { migrate } from '../../../../electron/history/history-schema';
import { createHistoryStore } from '../../../../electron/history/history-store';
import type { HistoryStore } from '../../../../electron/history/history-store';
import { DAY, describeSqlite, driver, events, fakeClock, MIN, socketCopy, T0 } from './history-fixtures';

let store: HistoryStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

function memoryStore(clock = fakeClock(), chatRetentionDays?: number): HistoryStore {
  const db = driver!.open(':memory:');
  migrate(db, clock);
  store = createHistoryStore(db, { clock, chatRetentionDays });
  return store;
}

describeSqlite('history store', () => {
  it('keeps a stream with its events, chat, and each viewer counts', () => {
    const s = memoryStore();
    const records = [
      events.live(T0),
      events.chat('a', 10, T0 + MIN),
      events.chat('b', 10, T0 + 2 * MIN),
      events.follow(11, T0 + 3 * MIN),
      events.sub(10, 4, T0 + 4 * MIN),
      events.gifts(12, [20, 21], T0 + 5 * MIN),
      events.kicks(10, 100, T0 + 6 * MIN),
      events.kicks(10, 50, T0 + 7 * MIN),
      events.metadata('Ranked grind', 'Valorant', T0 + 8 * MIN),
      events.offline(T0, T0 + 60 * MIN),
    ];
    records.forEach((r) => expect(s.apply(r)).toBe(true));
    expect(s.streams()).toEqual([
      { startedAtMs: T0, endedAtMs: T0 + 60 * MIN, seenFromMs: T0 + 200, title: 'Ranked grind', category: 'Valorant' },
    ]);
    expect(s.streamChanges(T0)).toEqual([{ atMs: T0 + 8 * MIN, title: 'Ranked grind', category: 'Valorant' }]);
    expect(s.chatLines({ streamId: T0 }).map((l) => l.content)).toEqual(['hello a', 'hello b']);
    expect(s.events({ streamId: T0 }).map((e) => e.type)).toHaveLength(8);
    expect(s.viewer(10)).toMatchObject({ messages: 2, subMonths: 4, kicks: 150, streams: 1, firstSeenMs: T0 + MIN });
    expect(s.viewer(11)).toMatchObject({ followedAtMs: T0 + 3 * MIN, messages: 0 });
    expect(s.viewer(12)).toMatchObject({ giftedSubs: 2 });
  });

  it('counts a chat line once when the live socket and the webhook both bring it', () => {
    const s = memoryStore();
    const webhook = events.chat('dup', 10, T0 + 1500);
    expect(s.apply(socketCopy(webhook))).toBe(true);
    expect(s.apply(webhook)).toBe(false);
    expect(s.apply(webhook)).toBe(false);
    expect(s.chatLines()).toHaveLength(1);
    expect(s.viewer(10)?.messages).toBe(1);
  });

  it('applies nothing twice when a restart catches up over records it already holds', () => {
    const s = memoryStore();
    const records = [events.live(T0), events.chat('x', 10, T0 + MIN), events.kicks(10, 5, T0 + 2 * MIN)];
    expect(s.catchUp(records)).toBe(3);
    const later = [...records, events.chat('y', 10, T0 + 3 * MIN)];
    expect(s.catchUp(later)).toBe(1);
    // A journal that rolled over past the store's last record: all of it is applied, still nothing twice.
    expect(s.catchUp([records[2]!, later[3]!, events.follow(10, T0 + 4 * MIN)])).toBe(1);
    expect(s.viewer(10)).toMatchObject({ messages: 2, kicks: 5, followedAtMs: T0 + 4 * MIN });
  });

  it('joins a stream live when Greenroom opened, and a restart mid-stream starts no second one', () => {
    const clock = fakeClock(T0 + 45 * MIN);
    const s = memoryStore(clock);
    s.observeLiveStatus({ isLive: true, startedAtMs: T0, title: 'Already on', category: 'Chess' });
    s.apply(events.chat('j', 10, T0 + 46 * MIN));
    s.apply(events.live(T0, T0 + 50 * MIN)); // Kick's status again after a restart
    s.observeLiveStatus({ isLive: true, startedAtMs: T0, title: 'Already on', category: 'Chess' });
    expect(s.streams()).toEqual([
      { startedAtMs: T0, endedAtMs: null, seenFromMs: T0 + 45 * MIN, title: 'Already on', category: 'Chess' },
    ]);
    expect(s.chatLines()[0]?.streamId).toBe(T0);
  });

  it('never reopens an ended stream for a live status that came late', () => {
    const s = memoryStore();
    s.apply(events.live(T0));
    s.apply(events.offline(T0, T0 + 60 * MIN));
    s.apply(events.live(T0, T0 + 70 * MIN)); // Kick's retry of the first live status
    s.apply(events.chat('after', 10, T0 + 71 * MIN));
    expect(s.streams()).toEqual([expect.objectContaining({ startedAtMs: T0, endedAtMs: T0 + 60 * MIN })]);
    expect(s.chatLines()[0]?.streamId).toBeNull();
  });

  it('closes a stream that ended while Greenroom was closed at its last activity', () => {
    const clock = fakeClock();
    const s = memoryStore(clock);
    s.apply(events.live(T0));
    s.apply(events.chat('last', 10, T0 + 30 * MIN));
    clock.set(T0 + 5 * 60 * MIN);
    s.observeLiveStatus({ isLive: false, startedAtMs: null, title: '', category: null });
    expect(s.streams()[0]?.endedAtMs).toBe(T0 + 30 * MIN);
    s.apply(events.chat('after', 10, T0 + 6 * 60 * MIN));
    expect(s.chatLines().at(-1)?.streamId).toBeNull();
  });

  it('prunes chat lines past the retention days and keeps the counts and the events', () => {
    const clock = fakeClock();
    const s = memoryStore(clock, 30);
    const old = events.chat('old', 10, T0);
    s.apply(old);
    s.apply(events.follow(10, T0));
    s.apply(events.chat('new', 10, T0 + 29 * DAY));
    clock.set(T0 + 31 * DAY);
    expect(s.prune()).toBe(1);
    expect(s.chatLines().map((l) => l.content)).toEqual(['hello new']);
    expect(s.events()).toHaveLength(1);
    // A pruned line seen again (a catch-up over an old journal) is not counted a second time.
    expect(s.apply(old)).toBe(false);
    expect(s.viewer(10)?.messages).toBe(2);
  });

  it('refuses a retention that is not a whole number of days', () => {
    for (const days of [0, -5, 1.5, Number.NaN, 100_000]) {
      expect(() => memoryStore(fakeClock(), days)).toThrow(/chat retention must be a whole number of days from 1/);
    }
  });

  it('stores hostile names and text as they are, never as SQL', () => {
    const s = memoryStore();
    const evil = "x'); DROP TABLE viewers; --";
    s.apply(events.chat('evil', 66, T0, evil, evil));
    expect(s.viewer(66)).toMatchObject({ username: evil, messages: 1 });
    expect(s.chatLines()[0]?.content).toBe(evil);
  });

  it('keeps the newest name of a viewer who renamed, whatever order the events came in', () => {
    const s = memoryStore();
    s.apply(events.chat('n2', 10, T0 + 2 * MIN, 'hi', 'new_name'));
    s.apply(events.chat('n1', 10, T0 + MIN, 'hi', 'old_name'));
    expect(s.viewer(10)).toMatchObject({ username: 'new_name', firstSeenMs: T0 + MIN, lastSeenMs: T0 + 2 * MIN });
  });

  it('keeps a viewer id Kick could not have sent as an unreadable event, counting no one', () => {
    const s = memoryStore();
    const chat = events.chat('huge', 10, T0);
    const body = JSON.parse(chat.body) as { sender: { user_id: number } };
    body.sender.user_id = 2 ** 64;
    expect(s.apply({ ...chat, body: JSON.stringify(body) })).toBe(true);
    expect(s.chatLines()).toEqual([]);
    expect(JSON.parse(s.events()[0]!.detail!).unreadable).toMatch(/sender\.user_id/);
  });

  it('leaves the store as it was when a record fails halfway, and applies it on the next catch-up', () => {
    const clock = fakeClock();
    const db = driver!.open(':memory:');
    migrate(db, clock);
    db.exec(`CREATE TRIGGER trouble BEFORE INSERT ON viewers WHEN NEW.user_id = 99
      BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`);
    const s = (store = createHistoryStore(db, { clock }));
    const journal = [events.chat('fine', 10, T0), events.chat('fails', 99, T0 + MIN)];
    s.apply(journal[0]!);
    expect(() => s.apply(journal[1]!)).toThrow(/disk trouble/);
    expect(s.chatLines().map((l) => l.userId)).toEqual([10]);
    expect(s.viewer(99)).toBeNull();
    db.exec('DROP TRIGGER trouble');
    expect(s.catchUp(journal)).toBe(1);
    expect(s.viewer(99)?.messages).toBe(1);
    expect(s.viewer(10)?.messages).toBe(1);
  });
});

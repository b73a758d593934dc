/**
 * Which stream an event belongs to: Kick's time for it within the stream's span, not the order it arrived in
 * (docs/history.md#which-stream-an-event-belongs-to). Kick's live-status webhook comes after the live socket's
 * first lines, webhooks run minutes behind, and a stream already live when Greenroom opened is joined.
 */
import { afterEach, expect, it } from 'vitest';
import { createRecapQueries } from '../../../../electron/history/recap';
import { listStreams } from '../../../../electron/history/streams-list';
import { describeSqlite, events, fakeClock, MIN, receivedAt, socketCopy, T0 } from './history-fixtures';
import { feed, type Fed } from './recap-fixtures';

let fed: Fed | null = null;
afterEach(() => {
  fed?.store.close();
  fed = null;
});

const recapOf = (f: Fed, streamId = T0) => createRecapQueries(f.db).recap(streamId)!;
const LAG = 10 * MIN;

describeSqlite('filing events under a stream by their time', () => {
  it('files the lines the live socket brought before the live-status webhook under the stream', () => {
    const lines = [1, 2, 3].map((i) => events.chat(`early-${i}`, 10 + i, T0 + i * 1_000));
    fed = feed([
      ...lines.map(socketCopy),
      receivedAt(events.live(T0), T0 + 5_000),
      ...lines,
      events.chat('after', 14, T0 + 6_000),
      events.offline(T0, T0 + 60 * MIN),
    ]);
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual([T0, T0, T0, T0]);
    expect(recapOf(fed).figures.messages).toBe(4);
    expect(recapOf(fed).newChatters.map((c) => c.userId)).toEqual([11, 12, 13, 14]);
    expect(fed.store.viewer(11)?.streams).toBe(1);
    expect(listStreams(fed.db)[0]?.figures).toMatchObject({ messages: 4, chatters: 4 });
  });

  it('counts every back-dated line when webhooks run ten minutes behind and the socket is on time', () => {
    // The socket brings each line as it is written; Kick's webhooks (live, lines, offline) come LAG later.
    const sent = Array.from({ length: 40 }, (_, i) => events.chat(`l${i}`, 100 + (i % 7), T0 + 30_000 * i + 500));
    const socket = sent.map((line) =>
      receivedAt(socketCopy(line), Date.parse((JSON.parse(line.body) as { created_at: string }).created_at)),
    );
    const webhooks = [events.live(T0), ...sent, events.offline(T0, T0 + 25 * MIN)].map((r) =>
      receivedAt(r, Date.parse(r.timestamp) + LAG),
    );
    const arrival = [...socket, ...webhooks].sort((a, b) => a.receivedAtMs - b.receivedAtMs);
    fed = feed(arrival);
    const recap = recapOf(fed);
    expect(recap.figures.messages).toBe(sent.length);
    expect(recap.series.chat.reduce((a, b) => a + b, 0)).toBe(sent.length);
    expect(recap.newChatters.reduce((n, c) => n + c.messages, 0)).toBe(sent.length);
    expect(fed.store.viewer(100)?.messages).toBe(6);
  });

  it('files a line whose webhook came after the offline under the stream it was written in', () => {
    fed = feed([
      events.live(T0),
      events.chat('on-time', 10, T0 + MIN),
      events.offline(T0, T0 + 30 * MIN),
      receivedAt(events.chat('held', 11, T0 + 29 * MIN), T0 + 40 * MIN),
      events.chat('between', 12, T0 + 45 * MIN),
    ]);
    expect(fed.store.chatLines().map((l) => [l.userId, l.streamId])).toEqual([
      [10, T0],
      [11, T0],
      [12, null],
    ]);
    expect(recapOf(fed).figures.messages).toBe(2);
    expect(fed.store.viewer(11)?.streams).toBe(1);
    expect(fed.store.viewer(12)?.streams).toBe(0);
  });

  it('takes out of the stream a line the socket dated after the end, before the offline webhook came', () => {
    const after = events.chat('late-socket', 11, T0 + 31 * MIN);
    fed = feed([
      events.live(T0),
      events.chat('in', 10, T0 + MIN),
      socketCopy(after),
      receivedAt(events.offline(T0, T0 + 30 * MIN), T0 + 32 * MIN),
    ]);
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual([T0, null]);
    expect(fed.store.viewer(11)).toMatchObject({ messages: 1, streams: 0 });
    expect(recapOf(fed).figures.messages).toBe(1);
  });

  it("keeps the socket's lines from the end's second in the stream, whichever came first under load", () => {
    // Written before the offline, in the same second; the socket says only the second, and a busy app hears it
    // a second later, so the line reads up to a second after Kick's end. Its signed webhook is a copy, not kept.
    const end = T0 + 30 * MIN + 600;
    const lastSecond = (id: string, user: number) =>
      receivedAt(socketCopy(events.chat(id, user, T0 + 30 * MIN + 300)), T0 + 30 * MIN + 1_500);
    fed = feed([
      events.live(T0),
      lastSecond('before-offline', 10),
      receivedAt(events.offline(T0, end), end + 100),
      lastSecond('after-offline', 11),
      receivedAt(socketCopy(events.chat('next-second', 12, T0 + 30 * MIN + 1_100)), T0 + 30 * MIN + 1_500),
    ]);
    expect(fed.store.chatLines().map((l) => [l.userId, l.streamId])).toEqual([
      [10, T0],
      [11, T0],
      [12, null],
    ]);
    expect(recapOf(fed).figures.messages).toBe(2);
    expect(fed.store.viewer(11)?.streams).toBe(1);
  });

  it("files the socket's line from the end's second under a stream whose offline came before its live status", () => {
    const end = T0 + 30 * MIN + 600;
    fed = feed([
      receivedAt(socketCopy(events.chat('last-second', 10, T0 + 30 * MIN + 300)), T0 + 30 * MIN + 1_500),
      receivedAt(events.offline(T0, end), end + 100),
      receivedAt(events.live(T0), end + 200),
    ]);
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual([T0]);
  });

  it("counts the socket's lines from the start's second when the computer's clock is behind Kick's", () => {
    // Kick's clock says the stream began at T0 + 400 and the lines came after it in that second; this computer's
    // clock reads two seconds earlier, so each line arrives "before" the second the socket gives for it.
    const start = T0 + 400;
    const behind = (id: string, user: number, kickMs: number) =>
      receivedAt(socketCopy(events.chat(id, user, kickMs)), kickMs - 2_000);
    fed = feed([
      receivedAt(events.live(start), start - 2_000),
      behind('first', 10, T0 + 600),
      behind('next', 11, T0 + 900),
    ]);
    expect(fed.store.chatLines().map((l) => [l.userId, l.streamId])).toEqual([
      [10, start],
      [11, start],
    ]);
    // The same, with the lines kept before the live status came.
    fed.store.close();
    fed = feed([behind('first', 10, T0 + 600), receivedAt(events.live(start), start - 1_500)]);
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual([start]);
  });

  it('joins a stream live when Greenroom opened, with the lines it already had from before the status', () => {
    const clock = fakeClock(T0 + 45 * MIN);
    fed = feed([events.chat('before-status', 10, T0 + 44 * MIN), events.chat('pre-stream', 11, T0 - MIN)], clock);
    fed.store.observeLiveStatus({ isLive: true, startedAtMs: T0, title: 'Already on', category: 'Chess' });
    fed.store.apply(events.chat('joined', 10, T0 + 46 * MIN));
    expect(fed.store.chatLines().map((l) => [l.userId, l.streamId])).toEqual([
      [11, null],
      [10, T0],
      [10, T0],
    ]);
    expect(recapOf(fed).figures.messages).toBe(2);
    expect(fed.store.streams()).toHaveLength(1);
  });

  it("files a follow by the stream open when it came when Kick's send time falls after the end", () => {
    // A follow has no time of its own: its only time is when Kick sent the webhook, late when webhooks run behind.
    fed = feed([
      events.live(T0),
      events.follow(20, T0 + 35 * MIN),
      events.offline(T0, T0 + 30 * MIN),
      events.follow(21, T0 + 50 * MIN),
    ]);
    expect(recapOf(fed).followers.map((f) => f.userId)).toEqual([20]);
    expect(fed.store.events({ userId: 21 })[0]?.streamId).toBeNull();
  });

  it('hands the lines dated after the next start to the next stream when an offline never came', () => {
    const T1 = T0 + 3 * 60 * MIN;
    fed = feed([
      events.live(T0),
      events.chat('first', 10, T0 + MIN),
      socketCopy(events.chat('next-early', 11, T1 + 2_000)),
      receivedAt(events.live(T1, T1, 'Second'), T1 + 5_000),
    ]);
    expect(fed.store.chatLines().map((l) => l.streamId)).toEqual([T0, T1]);
    expect(fed.store.viewer(11)?.streams).toBe(1);
    expect(recapOf(fed, T1).figures.messages).toBe(1);
  });

  it("keeps a past stream's recap as it was when the unsigned socket dates a line back into it", () => {
    const later = T0 + 24 * 60 * MIN;
    fed = feed([events.live(T0), events.chat('real', 10, T0 + MIN), events.offline(T0, T0 + 60 * MIN)]);
    const before = recapOf(fed);
    fed.store.apply(receivedAt(socketCopy(events.chat('forged', 66, T0 + 30 * MIN)), later));
    expect(recapOf(fed)).toEqual(before);
    expect(fed.store.viewer(66)).toMatchObject({ messages: 1, streams: 0 });
    // Kick's signed line for it is the record: filed by its time, however late it came.
    fed.store.apply(receivedAt(events.chat('held', 11, T0 + 40 * MIN), later));
    expect(recapOf(fed).figures.messages).toBe(2);
  });

  it("counts the socket's line written after the start in the start's second, though the second reads earlier", () => {
    const start = T0 + 400;
    const sameSecond = socketCopy(events.chat('same-second', 10, T0 + 700)); // the socket says T0
    const before = events.chat('just-before', 11, T0 + 300); // Kick's own time, before the start
    fed = feed([sameSecond, before, events.live(start)]);
    expect(fed.store.chatLines().map((l) => [l.userId, l.streamId])).toEqual([
      [11, null],
      [10, start],
    ]);
    fed.store.apply(socketCopy(events.chat('live-now', 12, T0 + 900)));
    expect(fed.store.chatLines({ streamId: start }).map((l) => l.userId)).toEqual([10, 12]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  projectLiveStatus,
  projectRecord,
  SOCKET_TIME_TRUSTED_MS,
} from '../../../../electron/history/history-projector';
import { events, MIN, receivedAt, socketCopy, socketVariant, T0 } from './history-fixtures';

describe('history projector', () => {
  it('puts a chat line in chat_lines with its sender counted once, in the open stream', () => {
    const p = projectRecord(events.chat('c1', 10, T0 + MIN, 'hi there'), { startedAtMs: T0 });
    expect(p.row).toMatchObject({
      table: 'chat_lines',
      atMs: T0 + MIN,
      streamId: T0,
      userId: 10,
      username: 'viewer_10',
      text: 'hi there',
    });
    expect(p.viewers).toEqual([{ userId: 10, username: 'viewer_10', atMs: T0 + MIN, messages: 1 }]);
  });

  it('gives a chat line and its live-socket copy the same key, so the store keeps one', () => {
    const webhook = events.chat('c2', 10, T0 + 1234);
    expect(projectRecord(socketCopy(webhook), null).row.key).toBe(projectRecord(webhook, null).row.key);
  });

  it('keys an event without an id of its own by its delivery, so two follows stay two', () => {
    const a = projectRecord(events.follow(10, T0), null).row.key;
    const b = projectRecord(events.follow(10, T0), null).row.key;
    expect(a).not.toBe(b);
  });

  it('counts subs, gifts and KICKs for who gave them, and no one for an anonymous gifter', () => {
    expect(projectRecord(events.sub(10, 3, T0), null).viewers[0]).toMatchObject({ userId: 10, subMonths: 3 });
    expect(projectRecord(events.gifts(11, [20, 21, 22], T0), null).viewers).toEqual([
      { userId: 11, username: 'viewer_11', atMs: T0, giftedSubs: 3 },
    ]);
    const anonymous = projectRecord(events.gifts(null, [20], T0), null);
    expect(anonymous.viewers).toEqual([]);
    expect(anonymous.row).toMatchObject({ table: 'events', amount: 1, userId: null });
    expect(projectRecord(events.kicks(12, 500, T0), null).row).toMatchObject({ amount: 500, userId: 12 });
  });

  it('files a ban under the banned viewer without counting it as a visit', () => {
    const p = projectRecord(events.ban(13, T0), { startedAtMs: T0 });
    expect(p.row).toMatchObject({ userId: 13, type: 'moderation.banned' });
    expect(JSON.parse(p.row.text!)).toMatchObject({ moderator: 'mod', reason: 'spam' });
    expect(p.viewers).toEqual([]);
  });

  it('starts a stream on live, at Kick started_at, and ends it on offline at ended_at', () => {
    const live = projectRecord(events.live(T0, T0 + 5000), null);
    expect(live.streams).toEqual([
      { op: 'start', startedAtMs: T0, seenFromMs: T0 + 5200, title: 'Morning stream', category: null },
    ]);
    expect(live.open).toEqual({ startedAtMs: T0 });
    expect(live.row.streamId).toBe(T0);
    const off = projectRecord(events.offline(T0, T0 + 60 * MIN), live.open);
    // The stream is kept ended if the offline came first (a start the store ignores when it has the stream).
    expect(off.streams).toEqual([
      { ...live.streams[0], seenFromMs: T0 + 60 * MIN + 200, endedAtMs: T0 + 60 * MIN },
      { op: 'end', startedAtMs: T0, endedAtMs: T0 + 60 * MIN },
    ]);
    expect(off.open).toBeNull();
    expect(off.row.streamId).toBe(T0);
  });

  it('joins the open stream when Kick says live again for it (a restart), starting nothing', () => {
    const again = projectRecord(events.live(T0, T0 + 30 * MIN), { startedAtMs: T0 });
    expect(again.streams).toEqual([]);
    expect(again.open).toEqual({ startedAtMs: T0 });
  });

  it('ends a stream whose offline never came when the next one starts', () => {
    const next = T0 + 3 * 60 * MIN;
    const p = projectRecord(events.live(next), { startedAtMs: T0 });
    expect(p.streams.map((op) => op.op)).toEqual(['end', 'start']);
    expect(p.streams[0]).toEqual({ op: 'end', startedAtMs: T0, endedAtMs: next, byNext: true });
  });

  it('lets a late status about an older stream end only that stream, the open one staying open', () => {
    const now = { startedAtMs: T0 + 3 * 60 * MIN };
    const lateLive = projectRecord(events.live(T0, T0 + 4 * 60 * MIN), now);
    expect(lateLive.streams).toEqual([]);
    expect(lateLive.open).toEqual(now);
    expect(lateLive.row.streamId).toBe(T0);
    const lateOffline = projectRecord(events.offline(T0, T0 + 60 * MIN), now);
    expect(lateOffline.streams.map((op) => [op.op, op.startedAtMs])).toEqual([
      ['start', T0],
      ['end', T0],
    ]);
    expect(lateOffline.streams[1]).toEqual({ op: 'end', startedAtMs: T0, endedAtMs: T0 + 60 * MIN });
    expect(lateOffline.open).toEqual(now);
  });

  it('records a title or category change only while a stream is open', () => {
    const change = projectRecord(events.metadata('Ranked grind', 'Valorant', T0 + MIN), { startedAtMs: T0 });
    expect(change.streams).toEqual([
      { op: 'change', startedAtMs: T0, atMs: T0 + MIN, title: 'Ranked grind', category: 'Valorant' },
    ]);
    expect(projectRecord(events.metadata('Offline title', 'Chatting', T0), null).streams).toEqual([]);
  });

  it('keeps an unreadable delivery as an event with the reason, never throwing', () => {
    const broken = { ...events.follow(10, T0), body: '{"follower": 12' };
    const p = projectRecord(broken, null);
    expect(p.row.table).toBe('events');
    expect(JSON.parse(p.row.text!).unreadable).toMatch(/not JSON/);
    const wrong = projectRecord({ ...events.kicks(10, 5, T0), body: '{"gift":{"amount":"lots"}}' }, null);
    expect(wrong.viewers).toEqual([]);
  });

  it('falls back to the delivery time when Kick time in the payload is unreadable', () => {
    const chat = events.chat('c3', 10, T0);
    const body = JSON.stringify({ ...JSON.parse(chat.body), created_at: 'yesterday-ish' });
    expect(projectRecord({ ...chat, body }, null).row.atMs).toBe(T0);
  });

  it('joins or begins a stream from the live status read at start', () => {
    const status = { isLive: true, startedAtMs: T0, title: 'Already on', category: 'Chess' };
    expect(projectLiveStatus(status, { startedAtMs: T0 }, T0 + 40 * MIN)).toEqual([]);
    expect(projectLiveStatus(status, null, T0 + 40 * MIN)).toEqual([
      { op: 'start', startedAtMs: T0, seenFromMs: T0 + 40 * MIN, title: 'Already on', category: 'Chess' },
    ]);
    expect(projectLiveStatus({ ...status, isLive: false }, { startedAtMs: T0 }, T0 + 40 * MIN)).toEqual([
      { op: 'end', startedAtMs: T0, endedAtMs: null },
    ]);
  });

  it('files a row by the stream its Kick time falls in, not the one open when it came', () => {
    const streamAt = (ms: number) => (ms >= T0 && ms <= T0 + 60 * MIN ? T0 : null);
    const line = events.chat('c4', 10, T0 + MIN);
    expect(projectRecord(socketCopy(line), null, streamAt).row.streamId).toBe(T0);
    expect(projectRecord(events.chat('c5', 10, T0 - MIN), { startedAtMs: T0 }, streamAt).row.streamId).toBeNull();
    // A follow's only time is when Kick sent it: outside any stream, the open one is the better guess.
    expect(projectRecord(events.follow(10, T0 + 70 * MIN), { startedAtMs: T0 }, streamAt).row.streamId).toBe(T0);
    expect(projectRecord(events.follow(10, T0 + 70 * MIN), null, streamAt).row.streamId).toBeNull();
  });

  it("does not file the socket's line by a time far from when it came, which could reach a past stream", () => {
    const streamAt = (ms: number) => (ms >= T0 && ms <= T0 + 60 * MIN ? T0 : null);
    const later = T0 + 24 * 60 * MIN;
    const forged = receivedAt(socketCopy(events.chat('c6', 10, T0 + MIN)), later);
    expect(projectRecord(forged, null, streamAt).row).toMatchObject({ streamId: null, fromSocket: true });
    expect(projectRecord(forged, { startedAtMs: later }, streamAt).row.streamId).toBe(later);
    const onTime = receivedAt(socketCopy(events.chat('c7', 10, T0 + MIN)), T0 + MIN + SOCKET_TIME_TRUSTED_MS);
    expect(projectRecord(onTime, null, streamAt).row.streamId).toBe(T0);
    // Kick's signed webhook is filed by its time however late it came.
    expect(projectRecord(receivedAt(events.chat('c8', 10, T0 + MIN), later), null, streamAt).row.streamId).toBe(T0);
  });

  it("knows the socket's line by its keys at the seconds around Kick's time", () => {
    const signed = events.chat('c9', 10, T0 + 1_999);
    const keys = projectRecord(signed, null).row.sameLineKeys;
    expect(keys).toHaveLength(4);
    for (const createdAtMs of [T0 + 1_000 - 2_000, T0, T0 + 2_000, T0 + 3_000]) {
      expect(keys).toContain(projectRecord(socketVariant(signed, { createdAtMs }), null).row.key);
    }
    expect(keys).not.toContain(projectRecord(socketVariant(signed, { createdAtMs: T0 + 5_000 }), null).row.key);
    expect(keys).not.toContain(projectRecord(events.chat('other', 10, T0 + 2_000), null).row.key);
    expect(projectRecord(events.follow(10, T0), null).row.sameLineKeys).toEqual([]);
  });
});

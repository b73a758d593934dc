/**
 * The late gate (electron/app/late-gate.ts): when Kick says an event happened, whether it is late by the
 * streamer's age, and the one digest entry per episode it keeps in the feed.
 */
import { describe, expect, it } from 'vitest';
import { createLateGate, happenedAtMs } from '../../../../electron/app/late-gate';
import { lateMarkRecord, lateMarksIn } from '../../../../electron/app/late-marks';
import { Feed } from '../../../../electron/services/feed';
import { parseKickEvent } from '../../../../electron/webhooks/events/parse-event';
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import type { FeedItem } from '../../../../shared/views';
import { event, PIXELPANDA, world } from '../services/event-views-fixtures';
import { followPayload, subscriptionPayload } from '../../../../sandbox/events/payloads';
import { STREAMER_USER_ID } from '../../../../sandbox/world';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const arrived = (e: KickEvent, atMs: number): KickEvent => ({ ...e, receivedAtMs: atMs });

function sub(createdAtMs: number, receivedAtMs: number): KickEvent {
  const payload = { ...subscriptionPayload(world(), STREAMER_USER_ID, PIXELPANDA, 1), created_at: iso(createdAtMs) };
  return arrived(event('channel.subscription.new', payload), receivedAtMs);
}

function follow(sentAtMs: number, receivedAtMs: number): KickEvent {
  const payload = followPayload(world(), STREAMER_USER_ID, PIXELPANDA + 1);
  return arrived(event('channel.followed', payload, iso(sentAtMs).replace('.000', '')), receivedAtMs);
}

function gate(lateAfterSec = 120) {
  const feed = new Feed();
  const emitted: FeedItem[] = [];
  const late = createLateGate({
    settings: { values: () => ({ lateAfterSec }) as never },
    feed,
    events: { emit: (_name: string, payload: { item: FeedItem }) => emitted.push(payload.item) } as never,
  });
  /** Judges and records one event as the app does, the event's own item first. */
  const pass = (e: KickEvent): boolean => {
    const isLate = late.judge(e);
    feed.upsert({
      id: e.messageId,
      kind: 'follow',
      atMs: e.receivedAtMs,
      text: 'x',
      userId: null,
      username: null,
      eventType: e.type,
    });
    late.recorded(e, isLate);
    return isLate;
  };
  const digests = () => feed.items().filter((i) => i.lateDigest);
  return { pass, digests, emitted, feed, late };
}

describe('happenedAtMs', () => {
  it("reads the payload's created_at first, the send-time header when there is none", () => {
    expect(happenedAtMs(sub(T0, T0 + 1000))).toBe(T0);
    expect(happenedAtMs(follow(T0 - 5000, T0))).toBe(T0 - 5000);
  });

  it("takes a renewal's send time: its created_at may be when the subscription began", () => {
    const renewal = event(
      'channel.subscription.renewal',
      { ...subscriptionPayload(world(), STREAMER_USER_ID, PIXELPANDA, 6), created_at: iso(T0 - 180 * 86_400_000) },
      iso(T0).replace('.000', ''),
    );
    expect(happenedAtMs(renewal)).toBe(T0);
  });

  it('falls back to the header when created_at is not a time', () => {
    const e = sub(T0, T0);
    const broken = { ...e, payload: { ...(e.payload as object), created_at: 'yesterday' } } as KickEvent;
    expect(happenedAtMs(broken)).toBe(Date.parse(e.timestamp));
  });
});

describe('the late gate', () => {
  it('judges by the streamer age: 2 minutes by default, as set otherwise', () => {
    expect(gate().pass(sub(T0, T0 + 119_000))).toBe(false);
    expect(gate().pass(sub(T0, T0 + 121_000))).toBe(true);
    expect(gate(600).pass(sub(T0, T0 + 121_000))).toBe(false);
    expect(gate().pass(follow(T0, T0 + 10 * 60_000))).toBe(true);
  });

  it('keeps one digest entry per episode, updated as late events come, announced each time', () => {
    const g = gate();
    g.pass(sub(T0, T0 + 10 * 60_000));
    g.pass(follow(T0, T0 + 10 * 60_000 + 1000));
    g.pass(sub(T0 + 1000, T0 + 10 * 60_000 + 2000));
    expect(g.digests()).toHaveLength(1);
    expect(g.digests()[0]).toMatchObject({ text: "3 events arrived late while Kick's webhooks were behind" });
    expect(g.digests()[0]!.lateDigest!.entries).toHaveLength(3);
    expect(g.emitted.filter((i) => i.lateDigest).map((i) => i.lateDigest!.count)).toEqual([1, 2, 3]);
  });

  it('adds no digest while events arrive on time, and a new one after an on-time event ends an episode', () => {
    const g = gate();
    g.pass(sub(T0, T0 + 1000));
    expect(g.digests()).toHaveLength(0);
    g.pass(sub(T0, T0 + 10 * 60_000));
    g.pass(sub(T0 + 10 * 60_000, T0 + 10 * 60_000 + 1000));
    g.pass(sub(T0, T0 + 11 * 60_000));
    expect(g.digests().map((d) => d.lateDigest!.count)).toEqual([1, 1]);
  });

  it("rebuilds a digest from the journal's events without announcing it; the episode then goes on in it", () => {
    const g = gate();
    const restored = (e: KickEvent) => {
      g.feed.upsert({
        id: e.messageId,
        kind: 'follow',
        atMs: e.receivedAtMs,
        text: 'x',
        userId: null,
        username: null,
        eventType: e.type,
      });
      g.late.recorded(e, g.late.judge(e), false);
    };
    restored(sub(T0, T0 + 10 * 60_000));
    restored(sub(T0 + 1000, T0 + 10 * 60_000 + 1000));
    expect(g.emitted).toEqual([]);
    expect(g.digests().map((d) => d.lateDigest!.count)).toEqual([2]);
    g.pass(sub(T0 + 2000, T0 + 10 * 60_000 + 5000));
    expect(g.digests().map((d) => d.lateDigest!.count)).toEqual([3]);
    expect(g.emitted.map((i) => i.lateDigest?.count)).toEqual([3]);
  });

  it('journals a live late verdict, and judges late what the journal marked, whatever the times say now', () => {
    const journaled: string[] = [];
    const feed = new Feed();
    const late = createLateGate({
      settings: { values: () => ({ lateAfterSec: 120 }) as never },
      feed,
      events: { emit: () => undefined } as never,
      journalLate: (e) => journaled.push(e.messageId),
    });
    const old = sub(T0, T0 + 10 * 60_000);
    late.recorded(old, late.judge(old));
    late.recorded(old, late.judge(old), false);
    late.recorded(sub(T0, T0 + 1000), false);
    expect(journaled).toEqual([old.messageId]);

    const { record } = lateMarkRecord(old.messageId, STREAMER_USER_ID, T0);
    const marks = lateMarksIn([parseKickEvent(record), old]);
    expect([marks.isMark(parseKickEvent(record)), marks.isMark(old)]).toEqual([true, false]);
    const onTimeNow = { ...old, receivedAtMs: T0 + 1000 };
    late.restoring(marks.late);
    expect(late.judge(onTimeNow)).toBe(true);
    late.restoring(new Set());
    expect(late.judge(onTimeNow)).toBe(false);
  });
});

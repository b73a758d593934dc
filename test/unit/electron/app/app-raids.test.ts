/**
 * The app's raids (electron/app/app-raids.ts) on a hand-driven clock and timers: a host without Kick's time
 * waits for its twin's, a late raid is recorded but not acted on, a raid is journaled before it is shown, and
 * the journal's raids come back into the feed only.
 */
import { describe, expect, it } from 'vitest';
import { createAppRaids } from '../../../../electron/app/app-raids';
import { createLateGate } from '../../../../electron/app/late-gate';
import { raidOfRecord, raidRecord } from '../../../../electron/app/raid-journal';
import { Feed } from '../../../../electron/services/feed';
import { RAID_TIME_WAIT_MS } from '../../../../electron/services/raids';
import { parseKickEvent } from '../../../../electron/webhooks/events/parse-event';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';
import type { LiveEvent } from '../../../../shared/kick/live-events';

type Host = Extract<LiveEvent, { type: 'host' }>;
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const v2 = (name = 'xqc', viewers = 120): Host => ({
  type: 'host',
  channel: 'chatrooms.1.v2',
  version: 'v2',
  hostId: null,
  hostUsername: name,
  viewers,
  message: null,
  createdAt: null,
});
const v1 = (atMs: number, name = 'xqc'): Host => ({
  ...v2(name),
  version: 'v1',
  hostId: 'm1',
  createdAt: new Date(atMs).toISOString(),
});

function setup(options: { record?: 'new' | 'duplicate' | 'closed' | null } = {}) {
  const time = { nowMs: T0 };
  const timers: { fn: () => void; atMs: number; cancelled: boolean }[] = [];
  const feed = new Feed();
  const emitted: string[] = [];
  const events = { emit: (_name: string, payload: { item: { text: string } }) => emitted.push(payload.item.text) };
  const late = createLateGate({
    settings: { values: () => ({ lateAfterSec: 120 }) as never },
    feed,
    events: events as never,
  });
  const offered: { id: string; live: boolean; lateByMs: number | null }[] = [];
  const welcomed: string[] = [];
  const obs: string[] = [];
  const journal: JournalRecord[] = [];
  const logs: string[] = [];
  const verdict = options.record === undefined ? 'new' : options.record;
  const raids = createAppRaids({
    feed,
    events: events as never,
    overlays: {
      offerRaid: (source, live = true, lateByMs = null) => offered.push({ id: source.id, live, lateByMs }),
    },
    chatBot: { onRaid: (source) => welcomed.push(source.fields.user!) },
    obs: { raided: (name) => obs.push(name) },
    late,
    broadcasterUserId: () => 100001,
    recordLive: verdict === null ? null : (record) => (journal.push(record), verdict),
    clock: { now: () => time.nowMs },
    setTimer: (fn, ms) => {
      const timer = { fn, atMs: time.nowMs + ms, cancelled: false };
      timers.push(timer);
      return { cancel: () => void (timer.cancelled = true) };
    },
    log: (line) => logs.push(line),
  });
  const advance = (ms: number) => {
    time.nowMs += ms;
    for (const timer of timers.filter((t) => !t.cancelled && t.atMs <= time.nowMs)) {
      timer.cancelled = true;
      timer.fn();
    }
  };
  const items = () => feed.items();
  return { raids, advance, time, items, offered, welcomed, obs, journal, logs, emitted };
}

describe('raids in the app', () => {
  it("acts once Kick's time comes with the twin, not before, and not again", () => {
    const t = setup();
    t.raids.onEvent(v2());
    expect(t.items()).toEqual([]);
    t.raids.onEvent(v1(T0 - 1000));
    expect(t.items().map((i) => [i.text, i.late])).toEqual([['xqc raided with 120 viewers', undefined]]);
    expect(t.welcomed).toEqual(['xqc']);
    expect(t.obs).toEqual(['xqc']);
    t.advance(RAID_TIME_WAIT_MS);
    t.raids.onEvent(v1(T0 - 1000));
    expect(t.items()).toHaveLength(1);
    expect(t.welcomed).toHaveLength(1);
    expect(t.journal).toHaveLength(1);
  });

  it('records a raid whose twin says it is old, marked late and in the digest; no alert, welcome or OBS', () => {
    const t = setup();
    t.raids.onEvent(v2());
    t.raids.onEvent(v1(T0 - 10 * 60_000));
    const [raid, digest] = [t.items().find((i) => i.kind === 'raid'), t.items().find((i) => i.lateDigest)];
    expect(raid?.late).toBe(true);
    expect(digest?.lateDigest?.entries.map((e) => e.text)).toEqual(['xqc raided with 120 viewers']);
    // Listed as late as the gate found it: ten minutes, by Kick's time for the raid.
    expect(t.offered).toEqual([{ id: raid!.id, live: true, lateByMs: 10 * 60_000 }]);
    expect([t.welcomed, t.obs]).toEqual([[], []]);
  });

  it('acts on a host whose twin never comes after the wait, as just happened', () => {
    const t = setup();
    t.raids.onEvent(v2());
    t.advance(RAID_TIME_WAIT_MS - 1);
    expect(t.items()).toEqual([]);
    t.advance(1);
    expect(t.items()[0]).toMatchObject({ text: 'xqc raided with 120 viewers', atMs: T0 });
    expect(t.welcomed).toEqual(['xqc']);
  });

  it('takes a time ahead of the clock as now, so the raid is neither late nor dated in the future', () => {
    const t = setup();
    t.raids.onEvent(v1(T0 + 365 * 24 * 3600_000));
    expect(t.items()[0]).toMatchObject({ atMs: T0 });
    expect(t.welcomed).toEqual(['xqc']);
  });

  it('shows nothing of a raid the journal refuses (stopping), and journals nothing without one', () => {
    const closed = setup({ record: 'closed' });
    closed.raids.onEvent(v1(T0));
    expect([closed.items(), closed.welcomed, closed.offered]).toEqual([[], [], []]);
    expect(closed.logs.join()).toContain('stopping');
    const none = setup({ record: null });
    none.raids.onEvent(v1(T0));
    expect(none.items()).toHaveLength(1);
  });

  it('restores a journaled raid into the feed only, and knows its twin; a damaged one is left out, said once', () => {
    const live = setup();
    live.raids.onEvent(v1(T0));
    const record = live.journal[0]!;
    const t = setup();
    t.time.nowMs = T0 + 5000;
    expect(t.raids.restore(parseKickEvent(record))).toBe(true);
    expect(t.items()).toEqual(live.items());
    expect(t.offered).toEqual([{ id: live.items()[0]!.id, live: false, lateByMs: null }]);
    expect([t.welcomed, t.obs, t.emitted]).toEqual([[], [], []]);
    t.raids.onEvent(v2());
    t.advance(RAID_TIME_WAIT_MS);
    expect(t.items()).toHaveLength(1);

    const broken = { ...record, body: JSON.stringify({ broadcaster: { user_id: 100001 }, raid: { id: 7 } }) };
    expect(t.raids.restore(parseKickEvent(broken))).toBe(true);
    expect(t.items()).toHaveLength(1);
    expect(t.logs.filter((l) => l.includes('could not be read'))).toHaveLength(1);
    const chat = { ...record, type: 'chat.message.sent' };
    expect(t.raids.restore(parseKickEvent(chat))).toBe(false);
  });
});

describe("a raid's journal record", () => {
  it('reads back bounded, whatever a hand wrote into the file', () => {
    const { record } = raidRecord(
      { id: 'raid:x:1', username: 'x', viewers: 1, atMs: T0, receivedAtMs: T0, timed: true },
      100001,
    );
    const edited = {
      ...record,
      body: JSON.stringify({
        broadcaster: { user_id: 100001 },
        raid: { id: 'raid:x:1', username: `\u202e${'y'.repeat(900)}`, viewers: -4, at_ms: T0, received_at_ms: T0 },
      }),
    };
    expect(raidOfRecord(parseKickEvent(edited))).toMatchObject({ username: 'y'.repeat(50), viewers: 0 });
    const invisible = { ...edited, body: edited.body.replace(/y{900}/, '\u200b') };
    expect(raidOfRecord(parseKickEvent(invisible))).toBe('damaged');
  });
});

/**
 * Alerts the late gate held back (docs/overlays.md#alerts-and-the-late-age), listed beside those the alert
 * box's own age dropped: with how late the gate found them, not the age the alert's own time gives (a
 * follow's only time is Kick's send time, a second before it arrived), and counted apart, so the panel can say
 * which limit held each back.
 */
import { describe, expect, it } from 'vitest';
import { OverlayHub } from '../../../../electron/overlays/overlay-hub';
import { DEFAULT_OVERLAY_SETTINGS } from '../../../../shared/overlays';
import { followPayload } from '../../../../sandbox/events/payloads';
import { STREAMER_USER_ID } from '../../../../sandbox/world';
import { event, PIXELPANDA, world as kickWorld } from '../services/event-views-fixtures';
import { FakeTime, gift, queueWorld } from './alert-queue-fixtures';

const MINUTE = 60_000;

/** A hub on `time`, past its start-up replay, with the logs it writes. */
function hub(time: FakeTime) {
  const logs: string[] = [];
  const settings = structuredClone(DEFAULT_OVERLAY_SETTINGS);
  const overlays = new OverlayHub({
    clock: time,
    settings: () => settings,
    emoteHost: () => '',
    mediaUrl: (name) => `/overlay/media/${name}`,
    progress: { read: () => null, write: () => undefined },
    chatMessages: () => [],
    feedItems: () => [],
    log: (line) => logs.push(line),
  });
  overlays.endReplay();
  return { overlays, logs };
}

/** A follow Kick stamped a second before it arrived, which is now. */
function follow(time: FakeTime, offset = 1) {
  const header = new Date(time.now() - 1000).toISOString().replace('.000', '');
  const e = event('channel.followed', followPayload(kickWorld(), STREAMER_USER_ID, PIXELPANDA + offset), header);
  return { ...e, receivedAtMs: time.now() };
}

describe('alerts held back by the late age', () => {
  it('lists a late follow through the hub as late as the gate found it, not by its send-time header', () => {
    const time = new FakeTime(Date.parse('2026-03-01T12:10:00.000Z'));
    const { overlays } = hub(time);
    overlays.ingest(follow(time), true, 10 * MINUTE);
    const { tooOld, waiting } = overlays.alerts.view();
    expect(waiting).toBe(0);
    expect(tooOld.count).toBe(1);
    expect(tooOld.lateCount).toBe(1);
    expect(tooOld.items[0]).toMatchObject({ kind: 'follow', ageMs: 10 * MINUTE, limit: 'late-age' });
    // On time (null), the same kind of event waits to play.
    overlays.ingest(follow(time, 2), true, null);
    expect(overlays.alerts.view()).toMatchObject({ waiting: 1, tooOld: { count: 1 } });
  });

  it('lists a late raid through the hub with the lateness given, and replays none at start', () => {
    const time = new FakeTime();
    const { overlays } = hub(time);
    const raid = { ...gift(time, 7), kind: 'raid' as const, fields: { user: 'xqc', viewers: '120' }, amount: 120 };
    overlays.offerRaid(raid, true, 4 * MINUTE);
    expect(overlays.alerts.view().tooOld.items[0]).toMatchObject({ id: 'm7', ageMs: 4 * MINUTE, limit: 'late-age' });
    const restarted = hub(time).overlays;
    restarted.offerRaid(raid, false, 4 * MINUTE);
    expect(restarted.alerts.view()).toMatchObject({ waiting: 0, tooOld: { count: 0 } });
  });

  it('counts late and too-old alerts apart, each with its limit, and Dismiss empties both', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.setPaused(true);
    queue.offer(gift(world.time, 0));
    queue.late(gift(world.time, 1), 10 * MINUTE);
    world.time.advance(2 * MINUTE);
    expect(queue.view().tooOld).toMatchObject({
      count: 2,
      lateCount: 1,
      items: [
        { id: 'm0', ageMs: 2 * MINUTE, limit: 'alert-age' },
        { id: 'm1', ageMs: 10 * MINUTE, limit: 'late-age' },
      ],
    });
    queue.dismissTooOld();
    expect(queue.view().tooOld).toEqual({ count: 0, lateCount: 0, items: [] });
  });

  it('never lists a nonsense lateness: negative or not a number is 0', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.late(gift(world.time, 0), -5000);
    queue.late(gift(world.time, 1), Number.NaN);
    expect(queue.view().tooOld.items.map((i) => i.ageMs)).toEqual([0, 0]);
  });

  it('logs late ones as delivered late, never as older than the alert box’s age', () => {
    const logs: string[] = [];
    const world = queueWorld();
    const queue = world.make({ log: (line) => logs.push(line) });
    queue.endReplay();
    queue.late(gift(world.time, 0), 10 * MINUTE);
    queue.late(gift(world.time, 1), 10 * MINUTE);
    world.time.advance(5_000);
    expect(logs).toEqual(['alerts: did not play 2 alerts whose events Kick delivered late (the panel lists them)']);
  });
});

import { describe, expect, it } from 'vitest';
import { gift, ids, queueWorld } from './alert-queue-fixtures';

const MINUTE = 60_000;

describe('alerts older than the set age', () => {
  it('are dropped and listed when their turn comes, by the event’s own time, not played late', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0, 5, 2 * MINUTE));
    queue.offer(gift(world.time, 1, 3, 2 * MINUTE - 1));
    expect(ids(world)).toEqual(['m1']);
    expect(queue.view().tooOld).toEqual({
      count: 1,
      lateCount: 0,
      items: [
        {
          id: 'm0',
          feedItemId: 'm0',
          kind: 'gifted-subs',
          text: 'gifter0 gifted 5 subs!',
          eventAtMs: world.time.now() - 2 * MINUTE,
          ageMs: 2 * MINUTE,
          limit: 'alert-age',
        },
      ],
    });
    expect(world.disk.progress?.lastShownId).toBe('m1');
  });

  it('go while they wait: paused, the count falls as each grows too old', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.setPaused(true);
    queue.offer(gift(world.time, 0));
    world.time.advance(30_000);
    queue.offer(gift(world.time, 1));
    expect(queue.view().waiting).toBe(2);
    world.time.advance(90_000 - 1);
    expect(queue.view().waiting).toBe(2);
    world.time.advance(1);
    expect(queue.view()).toMatchObject({ waiting: 1, tooOld: { count: 1 } });
    world.time.advance(30_000);
    expect(queue.view()).toMatchObject({ waiting: 0, tooOld: { count: 2 } });
    // Once the burst's log line is written, no timer is left.
    world.time.advance(5_000);
    expect(world.time.pending).toBe(0);
    queue.setPaused(false);
    expect(world.shown).toEqual([]);
  });

  it('go while no alert box is open, and OBS opening one later plays none of them', () => {
    const world = queueWorld();
    const queue = world.make();
    queue.endReplay();
    queue.offer(gift(world.time, 0));
    world.time.advance(2 * MINUTE);
    expect(queue.view()).toMatchObject({ waiting: 0, tooOld: { count: 1 } });
    queue.setAudience(1);
    expect(world.shown).toEqual([]);
  });

  it('behind a fresher alert go at their turn, so what is recorded stays in arrival order', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    queue.offer(gift(world.time, 1));
    queue.offer(gift(world.time, 2, 1, 10 * MINUTE)); // Kick delivered it late
    queue.offer(gift(world.time, 3));
    queue.done('m0');
    expect(world.disk.progress?.lastShownId).toBe('m1');
    queue.done('m1');
    expect(ids(world)).toEqual(['m0', 'm1', 'm3']);
    expect(queue.view().tooOld.items.map((item) => item.id)).toEqual(['m2']);
  });

  it('behind an alert its template passes over are not played either', () => {
    const world = queueWorld();
    world.settings.alerts.follow.enabled = false;
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    queue.offer({ ...gift(world.time, 1), kind: 'follow', fields: { user: 'f' } });
    queue.offer(gift(world.time, 2, 1, 10 * MINUTE));
    queue.done('m0');
    expect(ids(world)).toEqual(['m0']);
    expect(queue.view().tooOld.count).toBe(1);
    expect(world.disk.progress?.lastShownId).toBe('m2');
  });

  it('are not listed or played again after a restart', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    const sources = [gift(world.time, 1, 1, 5 * MINUTE), gift(world.time, 2, 1, 5 * MINUTE)];
    sources.forEach((source) => queue.offer(source));
    queue.done('m0');
    expect(queue.view().tooOld.count).toBe(2);
    queue.stop();

    const restarted = world.make();
    [gift(world.time, 0), ...sources].forEach((source) => restarted.replay(source));
    restarted.endReplay();
    restarted.setAudience(1);
    expect(restarted.view()).toMatchObject({ waiting: 0, tooOld: { count: 0 } });
  });

  it('follow a new limit at once, for alerts already waiting', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.setPaused(true);
    queue.offer(gift(world.time, 0, 1, 40_000));
    world.settings.maxAgeSec = 30;
    queue.recheck();
    expect(queue.view()).toMatchObject({ waiting: 0, tooOld: { count: 1 } });
  });

  it('never include test alerts or replays, however long they wait', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.setPaused(true);
    queue.test('follow');
    queue.playAgain(gift(world.time, 5, 1, 60 * MINUTE));
    world.time.advance(60 * MINUTE);
    expect(queue.view()).toMatchObject({ waiting: 2, tooOld: { count: 0 } });
    queue.setPaused(false);
    expect(world.shown.map((alert) => alert.kind)).toEqual(['gifted-subs']);
  });

  it('are listed at most 50 deep, the newest first; Dismiss empties the list', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.setPaused(true);
    for (let i = 0; i < 60; i++) {
      queue.offer(gift(world.time, i, 1, 3 * MINUTE));
    }
    const tooOld = queue.view().tooOld;
    expect(tooOld.count).toBe(60);
    expect(tooOld.items).toHaveLength(50);
    expect(tooOld.items[0]!.id).toBe('m59');
    queue.dismissTooOld();
    expect(queue.view().tooOld).toEqual({ count: 0, lateCount: 0, items: [] });
  });
});

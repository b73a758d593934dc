import { describe, expect, it } from 'vitest';
import type { AlertSource } from '../../../../electron/services/alert-source';
import { gift, ids, queueWorld } from './alert-queue-fixtures';

describe('the alert queue', () => {
  it('plays alerts one at a time in arrival order, each after the previous is done', () => {
    const world = queueWorld();
    const queue = world.playing();
    for (let i = 0; i < 3; i++) {
      queue.offer(gift(world.time, i, 5));
    }
    expect(ids(world)).toEqual(['m0']);
    expect(world.shown[0]!.text).toBe('gifter0 gifted 5 subs!');
    queue.done('m1'); // not the current one: ignored
    queue.done('m0');
    queue.done('m1');
    expect(ids(world)).toEqual(['m0', 'm1', 'm2']);
    expect(queue.waiting()).toBe(0);
  });

  it('waits for an alert overlay to be open', () => {
    const world = queueWorld();
    const queue = world.make();
    queue.endReplay();
    queue.offer(gift(world.time, 0));
    expect(world.shown).toEqual([]);
    queue.setAudience(1);
    expect(ids(world)).toEqual(['m0']);
  });

  it('ends an alert by itself after its duration and the grace period, when no overlay answers', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    queue.offer(gift(world.time, 1));
    world.time.advance(world.shown[0]!.durationMs + 4999);
    expect(ids(world)).toEqual(['m0']);
    world.time.advance(1);
    expect(ids(world)).toEqual(['m0', 'm1']);
  });

  it('after a restart plays what was not shown yet, and repeats nothing shown', () => {
    const world = queueWorld();
    const first = world.playing();
    const sources = Array.from({ length: 6 }, (_, i) => gift(world.time, i));
    sources.forEach((source) => first.offer(source));
    first.done('m0');
    first.done('m1'); // m2 is on screen when Greenroom stops
    expect(world.disk.progress).toEqual({ lastShownId: 'm2', lastShownAtMs: sources[2]!.receivedAtMs });
    first.stop();

    const restarted = world.make();
    sources.forEach((source) => restarted.replay(source));
    restarted.endReplay();
    restarted.setAudience(1);
    restarted.done('m3');
    restarted.done('m4');
    expect(ids(world)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('on its first start does not play the journal’s history', () => {
    const world = queueWorld(null);
    const queue = world.make();
    queue.replay(gift(world.time, 0));
    queue.endReplay();
    queue.setAudience(1);
    expect(world.shown).toEqual([]);
  });

  it('skips alerts below the template minimum, and a template switched off', () => {
    const world = queueWorld();
    world.settings.alerts['gifted-subs'].minAmount = 5;
    world.settings.alerts.follow.enabled = false;
    const queue = world.playing();
    queue.offer({ ...gift(world.time, 9), id: 'f', kind: 'follow', fields: { user: 'a' }, amount: 1 });
    queue.offer(gift(world.time, 1, 2));
    queue.offer(gift(world.time, 2, 10));
    expect(ids(world)).toEqual(['m2']);
  });

  it('alerts a redemption once, not again when it is accepted', () => {
    const world = queueWorld();
    const queue = world.playing();
    const redemption = (id: string): AlertSource => ({
      ...gift(world.time, 0),
      id,
      kind: 'redemption',
      fields: { user: 'v', reward: 'Hydrate' },
      amount: 1,
      redemptionId: 'r1',
    });
    queue.offer(redemption('pending'));
    queue.done('pending');
    queue.offer(redemption('accepted'));
    expect(ids(world)).toEqual(['pending']);
  });

  it('never records a test alert as shown', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.test('kicks');
    expect(world.shown[0]!.text).toMatch(/^TestViewer sent 100 KICKs/);
    expect(world.disk.progress).toBeNull();
  });
});

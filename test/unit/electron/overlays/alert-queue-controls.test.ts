import { describe, expect, it } from 'vitest';
import { gift, ids, queueWorld } from './alert-queue-fixtures';

describe('the alert queue’s controls', () => {
  it('Pause holds the next alert while the one on screen finishes; Resume plays it', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    expect(queue.setPaused(true)).toBe(true);
    expect(queue.setPaused(true)).toBe(false);
    queue.offer(gift(world.time, 1));
    queue.done('m0');
    expect(ids(world)).toEqual(['m0']);
    expect(queue.view()).toMatchObject({ paused: true, current: null, waiting: 1 });
    queue.setPaused(false);
    expect(ids(world)).toEqual(['m0', 'm1']);
    expect(queue.view()).toMatchObject({ paused: false, current: { id: 'm1', kind: 'gifted-subs' }, waiting: 0 });
  });

  it('Skip takes the alert on screen down at once and plays the next', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    queue.offer(gift(world.time, 1));
    expect(queue.skip('m0')).toBe(true);
    expect(world.ended).toEqual(['m0']);
    expect(ids(world)).toEqual(['m0', 'm1']);
    // An overlay's late done for the skipped alert ends nothing.
    queue.done('m0');
    expect(queue.view().current?.id).toBe('m1');
  });

  it('Skip names the alert the streamer saw: one that ended meanwhile skips nothing', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    queue.offer(gift(world.time, 1));
    queue.done('m0');
    expect(queue.skip('m0')).toBe(false);
    expect(world.ended).toEqual([]);
    expect(queue.view().current?.id).toBe('m1');
  });

  it('Skip while paused takes the alert down and starts nothing', () => {
    const world = queueWorld();
    const queue = world.playing();
    queue.offer(gift(world.time, 0));
    queue.offer(gift(world.time, 1));
    queue.setPaused(true);
    expect(queue.skip()).toBe(true);
    expect(ids(world)).toEqual(['m0']);
    expect(queue.view()).toMatchObject({ current: null, waiting: 1 });
  });

  it('Clear takes the alert down, drops every waiting one, and a restart brings none back', () => {
    const world = queueWorld();
    const queue = world.playing();
    const sources = Array.from({ length: 4 }, (_, i) => gift(world.time, i));
    sources.forEach((source) => queue.offer(source));
    expect(queue.clear()).toBe(4);
    expect(world.ended).toEqual(['m0']);
    expect(queue.view()).toMatchObject({ current: null, waiting: 0 });
    expect(world.disk.progress?.lastShownId).toBe('m3');
    queue.stop();

    const restarted = world.make();
    sources.forEach((source) => restarted.replay(source));
    restarted.endReplay();
    restarted.setAudience(1);
    expect(ids(world)).toEqual(['m0']);
  });

  it('Replay plays a copy next, under its own id, whatever its age or minimum, and never records it', () => {
    const world = queueWorld();
    world.settings.alerts['gifted-subs'].minAmount = 50;
    const queue = world.playing();
    const old = gift(world.time, 7, 2, 3_600_000);
    queue.offer(gift(world.time, 0, 60));
    queue.offer(gift(world.time, 1, 60));
    const before = world.disk.progress;
    queue.playAgain(old);
    queue.done('m0');
    expect(world.shown[1]!.id).toMatch(/^again-\d+-m7$/);
    expect(world.shown[1]!.text).toBe('gifter7 gifted 2 subs!');
    expect(world.disk.progress).toEqual(before);
    queue.done(world.shown[1]!.id);
    expect(ids(world).at(-1)).toBe('m1');
  });

  it('Replay of the alert on screen plays it again after it', () => {
    const world = queueWorld();
    const queue = world.playing();
    const source = gift(world.time, 0);
    queue.offer(source);
    queue.playAgain(source);
    queue.done('m0');
    expect(world.shown).toHaveLength(2);
    expect(world.shown[1]!.id).not.toBe('m0');
  });

  it('tells the panel every change it shows', () => {
    const world = queueWorld();
    const queue = world.playing();
    const seen = (): number => world.changes.count;
    let last = seen();
    for (const act of [
      () => queue.offer(gift(world.time, 0)),
      () => queue.offer(gift(world.time, 1)),
      () => queue.setPaused(true),
      () => queue.skip(),
      () => queue.setPaused(false),
      () => queue.clear(),
    ]) {
      act();
      expect(seen()).toBeGreaterThan(last);
      last = seen();
    }
  });
});

/**
 * What the alert queue writes to the log during a raid: one summarising line per burst of alerts dropped for
 * being too old, or past the line's limit, never one per alert; the panel still lists each dropped alert.
 */
import { describe, expect, it } from 'vitest';
import { gift, queueWorld } from './alert-queue-fixtures';

const SECOND = 1000;

function loggedWorld(maxPending?: number) {
  const world = queueWorld();
  const lines: string[] = [];
  const queue = world.make({ log: (line) => lines.push(line), ...(maxPending ? { maxPending } : {}) });
  queue.endReplay();
  queue.setAudience(1);
  return { world, queue, lines };
}

describe('alert queue log lines', () => {
  it('a raid of alerts growing too old one after another is one line, and the panel lists each', () => {
    const { world, queue, lines } = loggedWorld();
    queue.setPaused(true);
    for (let i = 0; i < 30; i++) {
      queue.offer(gift(world.time, i));
      world.time.advance(SECOND);
    }
    // Each grows too old a second after the one before: thirty drops, one after another.
    world.time.advance(120 * SECOND);
    expect(queue.view()).toMatchObject({ waiting: 0, tooOld: { count: 30 } });
    world.time.advance(5 * SECOND);
    expect(lines).toEqual([
      'alerts: dropped 30 alerts older than 120 s rather than play them late (the panel lists them)',
    ]);
  });

  it('says one alert in the singular, once the burst is quiet', () => {
    const { world, queue, lines } = loggedWorld();
    queue.setPaused(true);
    queue.offer(gift(world.time, 0));
    world.time.advance(120 * SECOND);
    expect(queue.view().tooOld.count).toBe(1);
    expect(lines).toEqual([]);
    world.time.advance(5 * SECOND);
    expect(lines).toEqual(['alerts: dropped 1 alert older than 120 s rather than play it late (the panel lists it)']);
  });

  it('a steady stream of drops still writes a line a minute, not one per alert', () => {
    const { world, queue, lines } = loggedWorld();
    queue.setPaused(true);
    for (let i = 0; i < 150; i++) {
      queue.offer(gift(world.time, i));
      world.time.advance(SECOND);
    }
    world.time.advance(200 * SECOND);
    expect(queue.view().tooOld.count).toBe(150);
    expect(lines.length).toBeLessThanOrEqual(4);
    const counted = lines.map((line) => Number(/dropped (\d+) alert/.exec(line)?.[1]));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(150);
  });

  it('a flood past the line’s limit is one line naming how many of the oldest went', () => {
    const { world, queue, lines } = loggedWorld(5);
    queue.setPaused(true);
    for (let i = 0; i < 12; i++) {
      queue.offer(gift(world.time, i));
    }
    expect(queue.view().waiting).toBe(5);
    world.time.advance(5 * SECOND);
    expect(lines).toEqual(['alerts: more than 5 alerts waiting; dropped the oldest 7 alerts']);
  });

  it('writes what it counted when Greenroom stops mid-burst', () => {
    const { world, queue, lines } = loggedWorld();
    queue.setPaused(true);
    queue.offer(gift(world.time, 0));
    queue.offer(gift(world.time, 1));
    world.time.advance(120 * SECOND);
    queue.stop();
    expect(lines).toEqual([
      'alerts: dropped 2 alerts older than 120 s rather than play them late (the panel lists them)',
    ]);
    expect(world.time.pending).toBe(0);
  });

  it('with no alert box open, says once that alerts are dropped, however many go', () => {
    const world = queueWorld();
    const lines: string[] = [];
    const queue = world.make({ log: (line) => lines.push(line) });
    queue.endReplay();
    // A follow every 40 s for half an hour, with no alert box in OBS: each waits 120 s and goes.
    for (let i = 0; i < 45; i++) {
      queue.offer(gift(world.time, i));
      world.time.advance(40 * SECOND);
    }
    world.time.advance(200 * SECOND);
    expect(queue.view()).toMatchObject({ waiting: 0, tooOld: { count: 45 } });
    expect(lines).toEqual([NO_BOX]);
  });

  it('counts what a restart brought back too old in the usual line, before any alert box could reconnect', () => {
    const world = queueWorld({ lastShownId: 'shown-before', lastShownAtMs: 0 });
    const lines: string[] = [];
    const queue = world.make({ log: (line) => lines.push(line) });
    queue.replay(gift(world.time, 900));
    queue.replay({ ...gift(world.time, 901), id: 'shown-before' });
    for (let i = 0; i < 3; i++) {
      queue.replay(gift(world.time, i, 1, 10 * 60 * SECOND));
    }
    queue.replay(gift(world.time, 3));
    queue.endReplay();
    world.time.advance(5 * SECOND);
    expect(lines).toEqual([
      'alerts: dropped 3 alerts older than 120 s rather than play them late (the panel lists them)',
    ]);
    // The one still young then waits for an alert box that never opens.
    world.time.advance(121 * SECOND);
    expect(queue.view().tooOld.count).toBe(4);
    expect(lines.slice(1)).toEqual([NO_BOX]);
  });

  it('says it again after an alert box opened and closed', () => {
    const world = queueWorld();
    const lines: string[] = [];
    const queue = world.make({ log: (line) => lines.push(line) });
    queue.endReplay();
    queue.offer(gift(world.time, 0));
    world.time.advance(121 * SECOND);
    queue.setAudience(1);
    queue.setPaused(true);
    queue.offer(gift(world.time, 1));
    world.time.advance(2 * SECOND);
    queue.setAudience(0);
    world.time.advance(121 * SECOND);
    queue.offer(gift(world.time, 2));
    world.time.advance(121 * SECOND);
    expect(queue.view().tooOld.count).toBe(3);
    expect(lines).toEqual([NO_BOX, NO_BOX]);
  });
});

const NO_BOX =
  'alerts: no alert box is open, so alerts waiting longer than 120 s are dropped rather than played late (the panel lists them); said once, until an alert box has opened';

import { describe, expect, it } from 'vitest';
import { createHealthPush } from '../../../../electron/app/health-push';
import type { HealthView } from '../../../../shared/views';
import { ManualScheduler } from '../../../helpers/manual-scheduler';

/** A stand-in health view: only its identity as JSON matters to the pusher. */
function health(accepted: number, tunnel = 'up'): HealthView {
  return { counters: { accepted }, tunnel: { state: tunnel } } as unknown as HealthView;
}

function setup() {
  const scheduler = new ManualScheduler();
  let current = health(0);
  const pushed: HealthView[] = [];
  const push = createHealthPush({
    read: () => current,
    push: (h) => pushed.push(h),
    intervalMs: 250,
    setTimer: scheduler.setTimer,
  });
  return {
    scheduler,
    pushed,
    push,
    set: (next: HealthView) => {
      current = next;
    },
  };
}

describe('health push', () => {
  it('a burst of 1,000 changes is one push now and one when the interval ends, not 1,000', () => {
    const { scheduler, pushed, push, set } = setup();
    for (let i = 1; i <= 1000; i++) {
      set(health(i));
      push.changed();
    }
    expect(pushed).toEqual([health(1)]);
    expect(scheduler.fireOnly()).toBe(250);
    expect(pushed).toEqual([health(1), health(1000)]);
    // Nothing changed since: the next interval ends quietly and no timer is left behind.
    scheduler.fireOnly();
    expect(pushed).toHaveLength(2);
    expect(scheduler.pending.size).toBe(0);
  });

  it('the first change after a quiet spell goes out at once', () => {
    const { scheduler, pushed, push, set } = setup();
    set(health(1));
    push.changed();
    scheduler.fireOnly();
    set(health(1, 'down'));
    push.changed();
    expect(pushed.at(-1)).toEqual(health(1, 'down'));
  });

  it('never pushes the same health twice in a row', () => {
    const { scheduler, pushed, push } = setup();
    push.changed();
    scheduler.fireOnly();
    push.changed();
    push.flush();
    expect(pushed).toEqual([health(0)]);
  });

  it('flush pushes a change at once inside the interval; stop cancels the pending one', () => {
    const { scheduler, pushed, push, set } = setup();
    push.changed();
    set(health(5));
    push.flush();
    expect(pushed).toEqual([health(0), health(5)]);
    set(health(6));
    push.changed();
    push.stop();
    expect(scheduler.pending.size).toBe(0);
    push.changed();
    expect(pushed).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { AdjustableClock, toRfc3339Seconds } from '../../../../../electron/core/clock';
import { createDeliveryLag, percentile } from '../../../../../electron/webhooks/events/delivery-lag';
import type { DeliveryLagState } from '../../../../../electron/webhooks/events/delivery-lag';

const START = Date.UTC(2025, 3, 1, 20, 0, 0);

function setup(options: { windowSize?: number; windowMs?: number } = {}) {
  const clock = new AdjustableClock({ now: () => 0 }, START);
  const lag = createDeliveryLag({ clock, ...options });
  const changes: DeliveryLagState[] = [];
  lag.onChange((state) => changes.push(state));
  /** A delivery Kick stamped `gapMs` before now, received now. */
  const deliver = (gapMs: number): number | null => lag.record(toRfc3339Seconds(clock.now() - gapMs), clock.now());
  return { clock, lag, changes, deliver };
}

describe('delivery lag', () => {
  it('is unknown with no samples', () => {
    const { lag, changes } = setup();
    expect(lag.snapshot()).toEqual({
      samples: 0,
      p50Ms: null,
      p95Ms: null,
      maxMs: null,
      state: 'unknown',
      delayMs: null,
    });
    expect(changes).toEqual([]);
  });

  it('computes nearest-rank percentiles and the max over the window', () => {
    const { lag, deliver, changes } = setup();
    for (let s = 1; s <= 100; s++) {
      deliver(s * 1000);
    }
    expect(lag.snapshot()).toEqual({
      samples: 100,
      p50Ms: 50_000,
      p95Ms: 95_000,
      maxMs: 100_000,
      state: 'normal',
      delayMs: null,
    });
    expect(changes).toEqual(['normal']);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });

  it('clamps negative gaps (clock skew) to 0 and ignores unparsable timestamps', () => {
    const { lag, clock } = setup();
    expect(lag.record(toRfc3339Seconds(clock.now() + 5000), clock.now())).toBe(0);
    expect(lag.record('2025-04-01T20:00:00+02:00', START)).toBe(2 * 3600_000);
    expect(lag.record('yesterday', clock.now())).toBeNull();
    expect(lag.record('2025-04-01 20:00:00', clock.now())).toBeNull();
    expect(lag.snapshot()).toMatchObject({ samples: 2, maxMs: 2 * 3600_000 });
  });

  it('keeps only the newest windowSize samples', () => {
    const { lag, deliver } = setup({ windowSize: 3 });
    for (const gap of [90_000, 90_000, 1000, 2000, 3000]) {
      deliver(gap);
    }
    expect(lag.snapshot()).toMatchObject({ samples: 3, p50Ms: 2000, maxMs: 3000 });
  });

  it('drops samples older than windowMs as the clock moves, down to unknown', () => {
    const { lag, deliver, clock, changes } = setup({ windowMs: 60_000 });
    deliver(120_000);
    clock.advance(30_000);
    deliver(1000);
    expect(lag.snapshot()).toMatchObject({ samples: 2, maxMs: 120_000 });
    clock.advance(30_001);
    expect(lag.snapshot()).toMatchObject({ samples: 1, maxMs: 1000, state: 'normal' });
    clock.advance(30_000);
    expect(lag.snapshot()).toMatchObject({ samples: 0, state: 'unknown' });
    expect(changes).toEqual(['delayed', 'normal', 'unknown']);
  });

  it('enters delayed at p50 >= 60 s and leaves only at p50 <= 30 s (hysteresis)', () => {
    const { lag, deliver, changes } = setup({ windowSize: 5 });
    for (let i = 0; i < 5; i++) {
      deliver(5000);
    }
    expect(changes).toEqual(['normal']);

    // One very late delivery (a retry) does not raise the alarm: the median is still small.
    deliver(300_000);
    expect(lag.snapshot().state).toBe('normal');

    deliver(61_000);
    deliver(61_000);
    expect(lag.snapshot()).toMatchObject({ p50Ms: 61_000, state: 'delayed', delayMs: 61_000 });
    expect(changes).toEqual(['normal', 'delayed']);

    // Between the thresholds: stays delayed instead of flapping back to normal.
    for (let i = 0; i < 5; i++) {
      deliver(45_000);
    }
    expect(lag.snapshot()).toMatchObject({ p50Ms: 45_000, state: 'delayed' });
    deliver(59_000);
    for (let i = 0; i < 4; i++) {
      deliver(40_000);
    }
    expect(lag.snapshot().state).toBe('delayed');

    for (let i = 0; i < 3; i++) {
      deliver(30_000);
    }
    expect(lag.snapshot()).toMatchObject({ p50Ms: 30_000, state: 'normal', delayMs: null });

    // Back below the entry threshold from normal: stays normal.
    for (let i = 0; i < 5; i++) {
      deliver(59_000);
    }
    expect(lag.snapshot().state).toBe('normal');
    expect(changes).toEqual(['normal', 'delayed', 'normal']);
  });

  it('reports each change once with its snapshot, isolates a throwing listener, and unsubscribes', () => {
    const clock = new AdjustableClock({ now: () => 0 }, START);
    const logs: string[] = [];
    const lag = createDeliveryLag({ clock, windowSize: 1, log: (line) => logs.push(line) });
    const seen: string[] = [];
    lag.onChange(() => {
      throw new Error('listener down');
    });
    const off = lag.onChange((state, snap) => seen.push(`${state}:${snap.p50Ms}`));
    const at = (gapMs: number): void => void lag.record(toRfc3339Seconds(clock.now() - gapMs), clock.now());
    at(90_000);
    at(90_000);
    at(1000);
    off();
    at(90_000);
    expect(seen).toEqual(['delayed:90000', 'normal:1000']);
    expect(logs).toHaveLength(3);
  });

  it("counts only the events' own times while the window has any: send times cannot see Kick's queue", () => {
    const { lag, clock } = setup();
    const now = clock.now();
    // Kick held chat ten minutes in its queue, then sent it: fresh send times, old created_at.
    for (let i = 0; i < 3; i++) {
      expect(lag.record(toRfc3339Seconds(now), now, 'sent')).toBe(0);
      expect(lag.record(new Date(now - 600_000).toISOString(), now, 'event')).toBe(600_000);
    }
    expect(lag.snapshot()).toMatchObject({ samples: 3, p50Ms: 600_000, state: 'delayed', delayMs: 600_000 });
    // With only send-time samples in the window, they are what there is.
    clock.advance(11 * 60_000);
    lag.record(toRfc3339Seconds(clock.now() - 2000), clock.now());
    expect(lag.snapshot()).toMatchObject({ samples: 1, p50Ms: 2000, state: 'normal', delayMs: null });
  });

  it('refuses a recovery threshold above the delay threshold', () => {
    const clock = new AdjustableClock({ now: () => 0 }, START);
    expect(() => createDeliveryLag({ clock, delayedThresholdMs: 10_000, recoverThresholdMs: 20_000 })).toThrow(
      RangeError,
    );
  });

  it('agrees with filtering and sorting the window afresh, sample by sample, for mixed sources and ages', () => {
    const windowSize = 50;
    const windowMs = 120_000;
    const { clock, lag } = setup({ windowSize, windowMs });
    let seed = 7;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const seen: { atMs: number; gapMs: number; source: 'event' | 'sent' }[] = [];
    for (let i = 0; i < 2000; i++) {
      clock.advance(Math.floor(random() * 4000));
      const gapMs = Math.floor(random() * 100) * 1000;
      const source = random() < 0.3 ? 'event' : 'sent';
      // The gap as recorded: a header has whole seconds, so it can be up to 1 s over `gapMs`.
      const recorded = lag.record(toRfc3339Seconds(clock.now() - gapMs), clock.now(), source)!;
      seen.push({ atMs: clock.now(), gapMs: recorded, source });
      const window = seen.slice(-windowSize).filter((x) => x.atMs >= clock.now() - windowMs);
      const events = window.filter((x) => x.source === 'event');
      const gaps = (events.length > 0 ? events : window).map((x) => x.gapMs).sort((a, b) => a - b);
      const snap = lag.snapshot();
      expect([snap.samples, snap.p50Ms, snap.p95Ms, snap.maxMs]).toEqual([
        gaps.length,
        percentile(gaps, 50),
        percentile(gaps, 95),
        gaps.at(-1) ?? null,
      ]);
    }
  });
});

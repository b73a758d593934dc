/** The live socket's per-connection flood budget and silence watchdog, on injected clocks. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameBudget, Watchdog } from '../../../../sandbox/live-socket/session-timers';

describe('FrameBudget', () => {
  it('allows max frames per window and starts afresh in the next window', () => {
    let now = 1_000;
    const budget = new FrameBudget(3, 10_000, () => now);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    now += 9_999;
    expect(budget.take()).toBe(false);
    now += 1;
    expect(budget.take()).toBe(true);
  });
});

describe('Watchdog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pings after the quiet time, closes after the grace, and waits again when it hears anything', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const dog = new Watchdog(
      1_000,
      () => calls.push('ping'),
      300,
      () => calls.push('close'),
    );
    dog.start();
    vi.advanceTimersByTime(999);
    dog.heard();
    vi.advanceTimersByTime(999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['ping']);
    dog.heard();
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual(['ping', 'ping']);
    vi.advanceTimersByTime(300);
    expect(calls).toEqual(['ping', 'ping', 'close']);
  });

  it('does nothing once stopped', () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    const dog = new Watchdog(
      100,
      () => calls.push('ping'),
      100,
      () => calls.push('close'),
    );
    dog.start();
    dog.stop();
    dog.heard();
    vi.advanceTimersByTime(1_000);
    expect(calls).toEqual([]);
  });
});

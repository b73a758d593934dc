import { describe, expect, it } from 'vitest';
import { budgetFigures } from '../../../bench/lib/storm-budget';
import { stormFigures } from '../../../bench/lib/storm-figures';

const cpu = (appCpuMs: number, rendererCpuMs: number) => ({ appCpuMs, rendererCpuMs });
const frames = (mainThreadCpuMs: number, framesSeen: number) => ({ mainThreadCpuMs, framesSeen });

describe('the storm’s budget per message', () => {
  it('divides the CPU time used between the two readings by the messages, in µs', () => {
    // 6,000 messages; the app used 3.6 s of CPU over the stretch, the renderer 7.2 s.
    const budget = budgetFigures(
      { start: cpu(1000, 5000), end: cpu(4600, 12_200) },
      { start: frames(10, 100), end: frames(10, 100) },
      6000,
    );
    expect(budget['chat-app-cpu-us-per-message']).toBe(600);
    expect(budget['chat-renderer-cpu-us-per-message']).toBe(1200);
  });

  it('divides the main thread’s CPU time between the readings by the frames drawn between them, in ms', () => {
    // 15 s of storm at 60 frames a second, the main thread's CPU busy 9 s of them.
    const budget = budgetFigures(
      { start: cpu(0, 0), end: cpu(1, 1) },
      { start: frames(2500, 1000), end: frames(11_500, 1900) },
      100,
    );
    expect(budget['chat-main-thread-ms-per-frame']).toBe(10);
  });

  it('is NaN, never a pass, with no messages, no frames or a reading that failed', () => {
    const none = budgetFigures(
      { start: cpu(0, 0), end: cpu(50, 50) },
      { start: frames(1000, 7), end: frames(2000, 7) },
      0,
    );
    expect(none['chat-app-cpu-us-per-message']).toBeNaN();
    expect(none['chat-renderer-cpu-us-per-message']).toBeNaN();
    expect(none['chat-main-thread-ms-per-frame']).toBeNaN();
    const noMetric = budgetFigures(
      { start: cpu(Number.NaN, 0), end: cpu(50, 50) },
      { start: frames(Number.NaN, 1), end: frames(2000, 61) },
      10,
    );
    expect(noMetric['chat-app-cpu-us-per-message']).toBeNaN();
    expect(noMetric['chat-renderer-cpu-us-per-message']).toBe(5000);
    expect(noMetric['chat-main-thread-ms-per-frame']).toBeNaN();
  });

  it('prints the three beside the storm’s figures, held to half a frame, half a core and a quarter of one', () => {
    const figures = stormFigures(24_000);
    expect(figures.slice(-3)).toEqual([
      { name: 'chat-app-cpu-us-per-message', unit: 'µs', target: { op: '<=', value: 625 } },
      { name: 'chat-renderer-cpu-us-per-message', unit: 'µs', target: { op: '<=', value: 1250 } },
      { name: 'chat-main-thread-ms-per-frame', unit: 'ms', target: { op: '<=', value: 8.3 } },
    ]);
  });
});

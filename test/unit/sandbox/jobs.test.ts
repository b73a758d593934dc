import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobRunner } from '../../../sandbox/admin/jobs';

const clock = { now: () => Date.UTC(2025, 0, 1) };

describe('JobRunner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the first step at once and the rest on the timer, then reports done', () => {
    const runner = new JobRunner(clock, () => undefined);
    const ran: number[] = [];
    const job = runner.start({
      kind: 'trigger',
      name: 'chat.message.sent',
      total: 3,
      step: (i) => {
        ran.push(i);
        return { fired: 1, nextDelayMs: i < 2 ? 100 : null };
      },
    });
    expect(ran).toEqual([0]);
    expect(job).toMatchObject({ job_id: 'job_1', state: 'running', steps_done: 1, steps_total: 3, fired: 1 });
    vi.advanceTimersByTime(99);
    expect(ran).toEqual([0]);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual([0, 1]);
    vi.advanceTimersByTime(100);
    expect(runner.get(job.job_id)).toMatchObject({
      state: 'done',
      steps_done: 3,
      fired: 3,
      ended_at: '2025-01-01T00:00:00.000Z',
    });
    expect(runner.runningCount()).toBe(0);
  });

  it('stops a job so no further step runs', () => {
    const runner = new JobRunner(clock, () => undefined);
    let steps = 0;
    const job = runner.start({
      kind: 'scenario',
      name: 'x',
      total: null,
      step: () => ({ fired: ++steps, nextDelayMs: 10 }),
    });
    expect(runner.stop(job.job_id)).toMatchObject({ state: 'stopped' });
    vi.advanceTimersByTime(1000);
    expect(steps).toBe(1);
    expect(runner.stop('job_404')).toBeUndefined();
  });

  it('lets a first-step error escape without keeping the job, and fails a later one with its message', () => {
    const lines: string[] = [];
    const runner = new JobRunner(clock, (line) => lines.push(line));
    expect(() =>
      runner.start({
        kind: 'trigger',
        name: 'bad',
        total: 1,
        step: () => {
          throw new Error('count: must be an integer');
        },
      }),
    ).toThrow('count: must be an integer');
    expect(runner.list()).toEqual([]);

    const job = runner.start({
      kind: 'scenario',
      name: 'flaky',
      total: 2,
      step: (i) => {
        if (i === 1) {
          throw new Error('boom');
        }
        return { fired: 1, nextDelayMs: 5 };
      },
    });
    vi.advanceTimersByTime(5);
    expect(runner.get(job.job_id)).toMatchObject({ state: 'failed', error: 'boom', steps_done: 1 });
    expect(lines).toEqual([`sandbox: job ${job.job_id} (flaky) failed: boom`]);
  });

  it('stopAll stops every running job', () => {
    const runner = new JobRunner(clock, () => undefined);
    const step = (): { fired: number; nextDelayMs: number } => ({ fired: 0, nextDelayMs: 10 });
    runner.start({ kind: 'scenario', name: 'a', total: null, step });
    runner.start({ kind: 'scenario', name: 'b', total: null, step });
    expect(runner.runningCount()).toBe(2);
    runner.stopAll();
    expect(runner.list().map((j) => j.state)).toEqual(['stopped', 'stopped']);
  });
});

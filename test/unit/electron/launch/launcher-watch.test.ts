/**
 * The panel server started by `npm start` stops once its launcher is gone, read as its parent changing
 * (electron/launch/launcher-watch.ts); started any other way, it watches nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  LAUNCHER_PID_ENV,
  LAUNCHER_POLL_MS,
  processRuns,
  watchLauncher,
} from '../../../../electron/launch/launcher-watch';
import { ManualScheduler } from '../../../helpers/manual-scheduler';

function world(env: Record<string, string | undefined>, parent = 4242) {
  const scheduler = new ManualScheduler();
  const state = { parent, running: true, gone: 0 };
  const timer = watchLauncher({
    env,
    ppid: () => state.parent,
    runs: (pid) => pid === 4242 && state.running,
    setTimer: scheduler.setTimer,
    onGone: () => state.gone++,
  });
  return { scheduler, state, timer };
}

describe('the launcher watch', () => {
  it('reads the parent twice a second and stops the server once it is another process', () => {
    const { scheduler, state } = world({ [LAUNCHER_PID_ENV]: '4242' });
    expect(scheduler.fireOnly()).toBe(LAUNCHER_POLL_MS);
    expect(scheduler.fireOnly()).toBe(LAUNCHER_POLL_MS);
    expect(state.gone).toBe(0);
    state.parent = 1; // the launcher was killed: init (or a subreaper) took the server
    scheduler.fireOnly();
    expect(state.gone).toBe(1);
    expect(scheduler.pending.size).toBe(0);
  });

  it('stops once the launcher no longer runs, though the parent id stays (as on Windows)', () => {
    const { scheduler, state } = world({ [LAUNCHER_PID_ENV]: '4242' });
    scheduler.fireOnly();
    expect(state.gone).toBe(0);
    state.running = false;
    scheduler.fireOnly();
    expect(state.gone).toBe(1);
    expect(scheduler.pending.size).toBe(0);
  });

  it('reads whether a process runs: this one does, one that exited does not', async () => {
    expect(processRuns(process.pid)).toBe(true);
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(processRuns(child.pid!)).toBe(false);
  });

  it('stops at once when the launcher went before the server started watching', () => {
    const { scheduler, state } = world({ [LAUNCHER_PID_ENV]: '4242' }, 1);
    expect(state.gone).toBe(1);
    expect(scheduler.pending.size).toBe(0);
  });

  it('watches nothing when no launcher is named, or the name is no process id', () => {
    for (const value of [undefined, '', 'abc', '0', '1', '-5', '12.5', ' 4242', '99999999999999999999']) {
      const { scheduler, state, timer } = world({ [LAUNCHER_PID_ENV]: value }, 1);
      expect(timer, String(value)).toBeNull();
      expect(state.gone).toBe(0);
      expect(scheduler.pending.size).toBe(0);
    }
  });

  it('stops reading once cancelled (the server stopping by itself)', () => {
    const { scheduler, state, timer } = world({ [LAUNCHER_PID_ENV]: '4242' });
    timer!.cancel();
    expect(scheduler.pending.size).toBe(0);
    state.parent = 1;
    expect(state.gone).toBe(0);
  });
});

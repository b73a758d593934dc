/**
 * The panel server that `npm start` runs in a child process (`scripts/start.mjs`: on Node 24, or with the app's
 * memory settings) stops when that launcher is gone
 * ([decisions](../../docs/decisions.md#the-panel-server-goes-with-its-launcher)).
 * The launcher passes Ctrl-C and SIGTERM on, and stops the server when its own parent goes; but a launcher killed
 * outright (SIGKILL: a task manager, an editor's stop button, the kernel out of memory) passes nothing on, and the
 * server would run on, holding its ports, with no terminal left to stop it from. The launcher names itself in
 * {@link LAUNCHER_PID_ENV}; the server stops once its parent is another process (init, or a subreaper), or once the
 * launcher no longer runs: on Windows a process's parent id stays the one it was started with after that parent
 * exits, so the parent alone would never be seen to go there.
 */
import type { SetTimer, Timer } from '../core/scheduler';

/** Set by the launcher in its child's environment only: its own process id. */
export const LAUNCHER_PID_ENV = 'GREENROOM_LAUNCHER_PID';
/** How often the parent is read: a stopped launcher's ports are free again within about this long. */
export const LAUNCHER_POLL_MS = 500;

export interface LauncherWatchDeps {
  env: Record<string, string | undefined>;
  /** This process's parent now (`process.ppid`, which Node reads afresh each time). */
  ppid: () => number;
  /** Whether a process with this id runs ({@link processRuns}). */
  runs: (pid: number) => boolean;
  setTimer: SetTimer;
  onGone: () => void;
}

/** Watches the launcher named in the environment; null when none is (the server was started some other way). */
export function watchLauncher(deps: LauncherWatchDeps): Timer | null {
  const text = deps.env[LAUNCHER_PID_ENV];
  const launcher = text === undefined || !/^\d+$/.test(text) ? NaN : Number(text);
  if (!Number.isSafeInteger(launcher) || launcher <= 1) {
    return null;
  }
  let timer: Timer | null = null;
  let cancelled = false;
  const check = (): void => {
    if (cancelled) {
      return;
    }
    if (deps.ppid() !== launcher || !deps.runs(launcher)) {
      deps.onGone();
    } else {
      timer = deps.setTimer(check, LAUNCHER_POLL_MS);
    }
  };
  check();
  return {
    cancel: () => {
      cancelled = true;
      timer?.cancel();
    },
  };
}

/** Whether a process with this id runs: signal 0 checks without sending; one of another account's answers EPERM. */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

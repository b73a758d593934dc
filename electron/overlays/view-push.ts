/**
 * A view that changes in bursts, pushed as a state rather than a message per change: a raid's alerts
 * change the alert queue many times a second, and each push is a frame to every panel. The first change
 * goes out at once, later ones at most once per `intervalMs`, and a push that would repeat the last is
 * skipped. Health is pushed by the same rule (electron/app/health-push.ts).
 */
import { nodeTimer, type SetTimer, type Timer } from '../core/scheduler';

/** At most four pushes a second: live to a streamer's eye, cheap in a raid. */
export const VIEW_PUSH_INTERVAL_MS = 250;

export interface ViewPush {
  /** The view may have changed: push now, or once the interval is over. */
  changed(): void;
  /** Push now if it differs from the last push (start-up, a restart), whatever the interval. */
  flush(): void;
  stop(): void;
}

export function createViewPush<T>(options: {
  read: () => T;
  push: (view: T) => void;
  intervalMs?: number;
  setTimer?: SetTimer;
}): ViewPush {
  const setTimer = options.setTimer ?? nodeTimer;
  const intervalMs = options.intervalMs ?? VIEW_PUSH_INTERVAL_MS;
  let last: string | null = null;
  let timer: Timer | null = null;
  let dirty = false;
  let stopped = false;

  const pushIfDifferent = (): void => {
    const view = options.read();
    const encoded = JSON.stringify(view);
    if (encoded !== last) {
      last = encoded;
      options.push(view);
    }
  };
  const quietPeriod = (): void => {
    timer = setTimer(() => {
      timer = null;
      if (dirty && !stopped) {
        dirty = false;
        pushIfDifferent();
        quietPeriod();
      }
    }, intervalMs);
  };

  return {
    changed() {
      if (stopped) {
        return;
      }
      if (timer !== null) {
        dirty = true;
        return;
      }
      pushIfDifferent();
      quietPeriod();
    },
    flush() {
      if (!stopped) {
        dirty = false;
        pushIfDifferent();
      }
    },
    stop() {
      stopped = true;
      if (timer !== null) {
        timer.cancel();
        timer = null;
      }
    },
  };
}

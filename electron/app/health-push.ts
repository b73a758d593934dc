/**
 * Health as a state that changes, not a message per event: every accepted delivery touches the health view
 * (counters, lag samples), and pushing it each time cost a snapshot, an IPC message to every window, a
 * WebSocket frame to every dock and a tray redraw per chat line in a raid (issue 10, "Make the numbers
 * true"). Here a burst collapses into at most one push per `intervalMs`: the first change goes out at once
 * (a tunnel going down is seen without delay), later ones wait for the interval, and a push that would
 * repeat the last one is skipped.
 */
import type { HealthView } from '../../shared/views';
import { realScheduler, type Scheduler } from '../webhooks/tunnel/tunnel';

/** At most four pushes a second: fast enough to read as live, cheap in a 400 messages/s raid. */
export const HEALTH_PUSH_INTERVAL_MS = 250;

export interface HealthPushOptions {
  read: () => HealthView;
  push: (health: HealthView) => void;
  intervalMs?: number;
  scheduler?: Scheduler;
}

export interface HealthPush {
  /** Health may have changed: push now, or once the interval is over. */
  changed(): void;
  /** Push now if it differs from the last push (start-up, a restart), whatever the interval. */
  flush(): void;
  stop(): void;
}

export function createHealthPush(options: HealthPushOptions): HealthPush {
  const { read, push } = options;
  const intervalMs = options.intervalMs ?? HEALTH_PUSH_INTERVAL_MS;
  const scheduler = options.scheduler ?? realScheduler;
  let last: string | null = null;
  let timer: unknown = null;
  let dirty = false;
  let stopped = false;

  function pushIfDifferent(): void {
    const health = read();
    const encoded = JSON.stringify(health);
    if (encoded !== last) {
      last = encoded;
      push(health);
    }
  }

  function quietPeriod(): void {
    timer = scheduler.setTimer(() => {
      timer = null;
      if (dirty && !stopped) {
        dirty = false;
        pushIfDifferent();
        quietPeriod();
      }
    }, intervalMs);
  }

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
        scheduler.clearTimer(timer);
        timer = null;
      }
    },
  };
}

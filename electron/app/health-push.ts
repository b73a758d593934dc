/**
 * Health as a state that changes, not a message per event: every accepted delivery touches the health view
 * (counters, lag samples), and pushing it each time cost a snapshot, an IPC message to every window, a
 * WebSocket frame to every dock and a tray redraw per chat line in a raid. A burst collapses into at most one
 * push per `intervalMs` (electron/overlays/view-push.ts): the first change goes out at once (a tunnel going
 * down is seen without delay), later ones wait for the interval, and a push that would repeat the last one is
 * skipped.
 */
import type { HealthView } from '../../shared/views';
import type { SetTimer } from '../core/scheduler';
import { createViewPush, VIEW_PUSH_INTERVAL_MS, type ViewPush } from '../overlays/view-push';

/** At most four pushes a second: fast enough to read as live, cheap in a 400 messages/s raid. */
export const HEALTH_PUSH_INTERVAL_MS = VIEW_PUSH_INTERVAL_MS;

export interface HealthPushDeps {
  read: () => HealthView;
  push: (health: HealthView) => void;
  intervalMs?: number;
  setTimer?: SetTimer;
}

export type HealthPush = ViewPush;

export function createHealthPush(options: HealthPushDeps): HealthPush {
  return createViewPush(options);
}

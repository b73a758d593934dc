/** What the panel-cut-off-from-the-app tests share: a link the test drops and brings back by hand. */
import type { ConnectionStatus } from '../../../../renderer/src/lib/transport';

/** A WebSocket-like link the test drops and brings back by hand. */
export function fakeLink(clock: { now(): number }, initial: ConnectionStatus = 'open') {
  let status: ConnectionStatus = initial;
  let lastAttemptMs: number | null = null;
  const statusListeners = new Set<(s: ConnectionStatus) => void>();
  const attemptListeners = new Set<(ms: number) => void>();
  return {
    get status() {
      return status;
    },
    get lastAttemptMs() {
      return lastAttemptMs;
    },
    onStatus(l: (s: ConnectionStatus) => void) {
      statusListeners.add(l);
      return () => statusListeners.delete(l);
    },
    onAttempt(l: (ms: number) => void) {
      attemptListeners.add(l);
      return () => attemptListeners.delete(l);
    },
    retries: 0,
    retryNow() {
      this.retries++;
    },
    set(next: ConnectionStatus) {
      status = next;
      for (const l of statusListeners) {
        l(next);
      }
    },
    attempt(ms = clock.now()) {
      lastAttemptMs = ms;
      for (const l of attemptListeners) {
        l(lastAttemptMs);
      }
    },
  };
}

/**
 * How late Kick delivers webhooks: the gap between when an event happened and when the receiver got it.
 * Streamers report deliveries minutes late at prime time ([design notes](../../../docs/design-notes.md#what-streamers-and-moderators-ask-for), "What streamers ask for" #2), so the
 * connection-health panel shows this and a banner says so while Kick is delaying events.
 *
 * - Where the payload carries the event's own time (`chat.message.sent`'s `created_at`, see
 *   `event-time.ts`), that is the start: Kick stamps `Kick-Event-Message-Timestamp` when it *sends*, so its
 *   10-minute queue delays never show in the header ([reference §5.5](../../../docs/kick-wire-reference.md#55-expected-response-and-retries), Lateness). Events without
 *   one fall back to the header, which still shows network and retry delays.
 * - While the window holds any event-time samples, only they count: send-time samples read near zero
 *   exactly when Kick is slow, and mixing them in would dilute the one measure that sees the delay.
 * - A header has whole seconds only, so a gap is over-stated by up to 1 s; thresholds are far above that.
 * - A negative gap means the clocks disagree, not that the event came from the future: it counts as 0.
 * - The state follows the median (p50), not the tail: one retried delivery (late by design) must not raise
 *   the alarm, while most deliveries being late must. Entering 'delayed' needs p50 >= `delayedThresholdMs`;
 *   leaving it needs p50 <= `recoverThresholdMs` (hysteresis, so the banner does not flap).
 * - The window is the last `windowSize` samples that are also at most `windowMs` old by the injected clock.
 *   Time passing can change the state with no new sample; `snapshot()` re-evaluates, so poll it.
 */
import type { Clock } from '../../core/clock';
import { parseRfc3339 } from './replay-guard';
import { Listeners } from '../../../shared/listeners';

export type DeliveryLagState = 'normal' | 'delayed' | 'unknown';

export interface DeliveryLagSnapshot {
  /** Samples in the window. */
  samples: number;
  /** Nearest-rank percentiles over the window; null when there are no samples. */
  p50Ms: number | null;
  p95Ms: number | null;
  maxMs: number | null;
  /** 'unknown' when the window is empty. */
  state: DeliveryLagState;
  /** While 'delayed', how far behind deliveries are now (the p50); null otherwise. */
  delayMs: number | null;
}

/** Where a sample's start came from: the event's own time, or Kick's send time (the header). */
export type LagSource = 'event' | 'sent';

export interface DeliveryLagDeps {
  clock: Clock;
  /** Default 500 samples. */
  windowSize?: number;
  /** Default 10 minutes. */
  windowMs?: number;
  /** Default 60 s. */
  delayedThresholdMs?: number;
  /** Default 30 s; must not exceed `delayedThresholdMs`. */
  recoverThresholdMs?: number;
  log?: (line: string) => void;
}

export type DeliveryLagListener = (state: DeliveryLagState, snapshot: DeliveryLagSnapshot) => void;

export interface DeliveryLag {
  /**
   * Records one delivery that started at `startedAt` (RFC 3339): the event's own time (`source` 'event') or
   * Kick's send time (default, 'sent'). Returns the gap in ms, or null when `startedAt` is not an RFC 3339
   * time (the receiver has checked the header; a payload's field may still be malformed).
   */
  record(startedAt: string, receivedAtMs: number, source?: LagSource): number | null;
  snapshot(): DeliveryLagSnapshot;
  /** Called on every state change, including into and out of 'unknown'. Returns the unsubscribe function. */
  onChange(listener: DeliveryLagListener): () => void;
}

interface Sample {
  atMs: number;
  gapMs: number;
  source: LagSource;
}

/** Creates an empty tracker (state 'unknown'). */
export function createDeliveryLag(options: DeliveryLagDeps): DeliveryLag {
  const {
    clock,
    windowSize = 500,
    windowMs = 10 * 60_000,
    delayedThresholdMs = 60_000,
    recoverThresholdMs = 30_000,
    log = () => undefined,
  } = options;
  if (!Number.isInteger(windowSize) || windowSize < 1) {
    throw new RangeError('windowSize must be >= 1');
  }
  if (recoverThresholdMs > delayedThresholdMs) {
    throw new RangeError('recoverThresholdMs must not exceed delayedThresholdMs');
  }

  // Arrival order (oldest at `head`), and the same gaps kept sorted as they come and go, so a delivery
  // costs a binary search and a short move instead of a filter and a sort of the window (6% of a raid's
  // CPU).
  let samples: Sample[] = [];
  let head = 0;
  const sortedAll: number[] = [];
  const sortedEvents: number[] = [];
  let state: DeliveryLagState = 'unknown';
  const listeners = new Listeners<Parameters<DeliveryLagListener>>((error) =>
    log(`delivery-lag: a change listener failed: ${error instanceof Error ? error.message : String(error)}`),
  );

  function dropOldest(): void {
    const gone = samples[head++]!;
    removeSorted(sortedAll, gone.gapMs);
    if (gone.source === 'event') {
      removeSorted(sortedEvents, gone.gapMs);
    }
    if (head > windowSize) {
      samples = samples.slice(head);
      head = 0;
    }
  }

  function evaluate(): DeliveryLagSnapshot {
    const oldest = clock.now() - windowMs;
    // Arrival order is time order (receipt times grow; a clock stepped back only delays an expiry), so the
    // too-old samples are at the front.
    while (head < samples.length && samples[head]!.atMs < oldest) {
      dropOldest();
    }
    const gaps = sortedEvents.length > 0 ? sortedEvents : sortedAll;
    const p50 = percentile(gaps, 50);
    const next = nextState(state, p50, delayedThresholdMs, recoverThresholdMs);
    const snap: DeliveryLagSnapshot = {
      samples: gaps.length,
      p50Ms: p50,
      p95Ms: percentile(gaps, 95),
      maxMs: gaps.at(-1) ?? null,
      state: next,
      delayMs: next === 'delayed' ? p50 : null,
    };
    if (next !== state) {
      state = next;
      listeners.emit(next, snap);
    }
    return snap;
  }

  return {
    record(startedAt, receivedAtMs, source = 'sent') {
      const startedAtMs = parseRfc3339(startedAt);
      if (startedAtMs === null || !Number.isFinite(receivedAtMs)) {
        return null;
      }
      const gapMs = Math.max(0, receivedAtMs - startedAtMs);
      samples.push({ atMs: receivedAtMs, gapMs, source });
      insertSorted(sortedAll, gapMs);
      if (source === 'event') {
        insertSorted(sortedEvents, gapMs);
      }
      if (samples.length - head > windowSize) {
        dropOldest();
      }
      evaluate();
      return gapMs;
    },
    snapshot: evaluate,
    onChange: (listener) => listeners.add(listener),
  };
}

/** The first index in ascending `sorted` whose value is not below `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

function insertSorted(sorted: number[], value: number): void {
  sorted.splice(lowerBound(sorted, value), 0, value);
}

function removeSorted(sorted: number[], value: number): void {
  const at = lowerBound(sorted, value);
  if (sorted[at] === value) {
    sorted.splice(at, 1);
  }
}

/** Nearest-rank percentile of ascending `sorted`; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) {
    return null;
  }
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

function nextState(current: DeliveryLagState, p50: number | null, enterMs: number, leaveMs: number): DeliveryLagState {
  if (p50 === null) {
    return 'unknown';
  }
  if (current === 'delayed') {
    return p50 <= leaveMs ? 'normal' : 'delayed';
  }
  return p50 >= enterMs ? 'delayed' : 'normal';
}

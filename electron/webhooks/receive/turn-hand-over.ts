/**
 * Accepted records go to the app once per event-loop turn, in arrival order, instead of one by one in the
 * middle of each delivery's work (docs/decisions.md, "Deliveries handed over once per turn"). A turn's
 * hand-over runs for at most `sliceMs` and leaves the rest to the next turn, so a burst that costs much per
 * record (hostile chat against the largest auto-moderation rules) cannot keep main from a panel's request
 * for longer. The receiver answers a delivery only once the hand-over has reached it (`whenHanded`), so a
 * delivery Kick hears 200 (or 500) for has always been handed over by then.
 */
import { performance } from 'node:perf_hooks';
import type { JournalRecord } from '../events/types';

/** The longest one turn's hand-over runs before it leaves the rest to the next turn. */
export const HAND_OVER_SLICE_MS = 4;

export interface TurnHandOver<T = JournalRecord> {
  /** Queues a record; the first of a turn schedules the hand-over. Returns the record's place in line. */
  add(record: T): number;
  /** Hands over everything queued, now (from inside `handOne`: once the running hand-over reaches it). */
  flush(): void;
  /** Null when the record at `place` (from `add`) has been handed over; else a promise of that moment. */
  whenHanded(place: number): Promise<void> | null;
}

/**
 * `handOne` is not expected to throw (the receiver's `createPublish` logs its own failures); if it does, the
 * records after it stay queued for the next turn. `schedule` runs a callback once the current turn's I/O
 * callbacks are done: `setImmediate` in the app, a manual queue in tests. `now` reads a clock in ms for the
 * slice.
 */
export function createTurnHandOver<T = JournalRecord>(
  handOne: (record: T) => void,
  schedule: (run: () => void) => void = setImmediate,
  slice: { sliceMs?: number; now?: () => number } = {},
): TurnHandOver<T> {
  const sliceMs = slice.sliceMs ?? HAND_OVER_SLICE_MS;
  const now = slice.now ?? (() => performance.now());
  let waiting: T[] = [];
  /** Records ever queued, and ever handed over: the record at place p is handed over once `handed > p`. */
  let queued = 0;
  let handed = 0;
  let handing = false;
  let scheduled = false;
  let waiters: { place: number; resolve: () => void }[] = [];

  const turn = (): void => {
    scheduled = false;
    handOver(now() + sliceMs);
  };
  const scheduleTurn = (): void => {
    if (!scheduled) {
      scheduled = true;
      schedule(turn);
    }
  };

  /** Hands over in order until the queue is empty or, with a deadline, the time is up after a record. */
  const handOver = (deadline: number | null): void => {
    // A flush from inside `handOne` leaves the work to the one already running, which takes what is added
    // meanwhile after what was there: handing over from the middle of a batch would reorder it.
    if (handing) {
      return;
    }
    handing = true;
    let next = 0;
    try {
      while (next < waiting.length) {
        handOne(waiting[next++]!);
        if (deadline !== null && now() >= deadline) {
          break;
        }
      }
    } finally {
      // After a throw the records not yet handed over stay queued, for the next turn or flush.
      waiting = waiting.slice(next);
      handed += next;
      handing = false;
      if (waiting.length > 0) {
        scheduleTurn();
      }
      if (waiters.length > 0) {
        const ready = waiters.filter((w) => w.place < handed);
        waiters = waiters.filter((w) => w.place >= handed);
        ready.forEach((w) => w.resolve());
      }
    }
  };

  return {
    add(record) {
      waiting.push(record);
      scheduleTurn();
      return queued++;
    },
    flush: () => handOver(null),
    whenHanded(place) {
      return place < handed ? null : new Promise((resolve) => waiters.push({ place, resolve }));
    },
  };
}

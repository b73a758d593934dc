/**
 * Accepted records go to the app once per event-loop turn, in arrival order, instead of one by one in the
 * middle of each delivery's work (docs/decisions.md, "Deliveries handed over once per turn"). A turn's
 * hand-over hands records over until `sliceMs` have passed, finishing the record in hand, and leaves the rest
 * to the next turn, so a burst that costs much per record (hostile chat against the largest auto-moderation
 * rules) keeps main from a panel's request for about one slice at a time instead of the whole burst. The
 * receiver answers a delivery only once the hand-over has reached it (`whenHanded`), so a delivery Kick hears
 * 200 (or 500) for has always been handed over by then. `flush` is the exception to slicing: it hands over the
 * whole queue in one task, because its caller (a live-socket line, which the journal orders after every
 * delivery before it) needs everything before it handed over first. A flush from inside a running hand-over
 * changes nothing: the only one is a late mark journaled by a listener, which nobody sees, so its place among
 * what is shown does not matter, and honouring it would turn the slice back into the whole burst.
 */
import { performance } from 'node:perf_hooks';
import type { JournalRecord } from '../events/types';

/** The longest one turn's hand-over runs before it leaves the rest to the next turn. */
export const HAND_OVER_SLICE_MS = 4;

export interface TurnHandOver<T = JournalRecord> {
  /** Queues a record; the first of a turn schedules the hand-over. Returns the record's place in line. */
  add(record: T): number;
  /** Hands over everything queued, now, in one task; from inside `handOne`, nothing more than the running one. */
  flush(): void;
  /**
   * Null when the record at `place` (from `add`) has been handed over; else a promise of that moment, the same
   * one for every call with that place. A place `add` has not returned is a caller's bug, and throws.
   */
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
  /** By place: released in place order as `handed` passes them, so each turn touches only its own. */
  const waiters = new Map<number, { promise: Promise<void>; resolve: () => void }>();

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
    const before = handed;
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
      if (waiters.size > 0) {
        for (let place = before; place < handed; place++) {
          const waiter = waiters.get(place);
          if (waiter) {
            waiters.delete(place);
            waiter.resolve();
          }
        }
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
      if (place < handed) {
        return null;
      }
      if (!Number.isInteger(place) || place >= queued) {
        throw new RangeError(`no record was queued at place ${place} (${queued} queued)`);
      }
      let waiter = waiters.get(place);
      if (!waiter) {
        let resolve!: () => void;
        const promise = new Promise<void>((settle) => (resolve = settle));
        waiter = { promise, resolve };
        waiters.set(place, waiter);
      }
      return waiter.promise;
    },
  };
}

/**
 * Accepted records go to the app once per event-loop turn, in arrival order, instead of one by one in the
 * middle of each delivery's work (docs/decisions.md, "Deliveries handed over once per turn"). The
 * receiver calls `flush()` before it answers, so a delivery Kick hears 200 (or 500) for has always been
 * handed over by then.
 */
import type { JournalRecord } from '../events/types';

export interface TurnHandOver<T = JournalRecord> {
  /** Queues a record; the first of a turn schedules the hand-over. */
  add(record: T): void;
  /** Hands over everything queued, now (from inside `handOne`: once the running hand-over reaches it). */
  flush(): void;
}

/**
 * `handOne` is not expected to throw (the receiver's `createPublish` logs its own failures); if it does, the
 * records after it stay queued. `schedule` runs a callback once the current turn's I/O callbacks are done:
 * `setImmediate` in the app, a manual queue in tests.
 */
export function createTurnHandOver<T = JournalRecord>(
  handOne: (record: T) => void,
  schedule: (run: () => void) => void = setImmediate,
): TurnHandOver<T> {
  let waiting: T[] = [];
  let handing = false;
  let scheduled = false;

  const flush = (): void => {
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
      }
    } finally {
      // After a throw the records not yet handed over stay queued, for the next flush.
      waiting = waiting.slice(next);
      handing = false;
    }
  };

  return {
    add(record) {
      waiting.push(record);
      if (!scheduled) {
        scheduled = true;
        schedule(() => {
          scheduled = false;
          flush();
        });
      }
    },
    flush,
  };
}

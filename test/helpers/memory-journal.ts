/**
 * An in-memory {@link EventJournal} for the receiver's tests and benchmark: keeps records in order and
 * can be told to fail appends, to prove the receiver answers 500 and rolls its dedup claim back.
 */
import type { EventJournal, JournalRecord } from '../../electron/webhooks/events/types';

export class MemoryJournal implements EventJournal {
  readonly records: JournalRecord[] = [];
  #failures = 0;
  #closed = false;
  /** Appends attempted, including failed ones. */
  appendCalls = 0;

  /** Makes the next `count` appends reject. */
  failNext(count = 1): void {
    this.#failures += count;
  }

  append(record: JournalRecord): Promise<void> {
    this.appendCalls++;
    if (this.#closed) {
      return Promise.reject(new Error('journal closed'));
    }
    if (this.#failures > 0) {
      this.#failures--;
      return Promise.reject(new Error('disk full (simulated)'));
    }
    this.records.push(record);
    return Promise.resolve();
  }

  readAll(): Promise<JournalRecord[]> {
    return Promise.resolve([...this.records]);
  }

  close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }
}

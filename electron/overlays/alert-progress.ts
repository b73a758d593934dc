/**
 * Which alerts are handled, across restarts (docs/overlays.md#alerts): the last one to leave the queue for
 * good, by its event's message id. Alerts leave in arrival order, so everything before it is handled too.
 */
import type { AlertSource } from '../services/alert-source';

/** The last alert handled: its id and when its event arrived. */
export interface AlertProgress {
  lastShownId: string;
  lastShownAtMs: number;
}

/** Where the progress is kept; `write` replaces it whole (a crash leaves the old or the new record). */
export interface AlertProgressStore {
  read(): AlertProgress | null;
  write(progress: AlertProgress): void;
}

/** The record as read at start, then written as alerts are handled. */
export class AlertProgressKeeper {
  readonly #store: AlertProgressStore;
  readonly #log: (line: string) => void;
  #progress: AlertProgress | null;

  constructor(store: AlertProgressStore, log: (line: string) => void) {
    this.#store = store;
    this.#log = log;
    this.#progress = store.read();
  }

  /** Null before the first alert was ever handled (a new alert box plays no history). */
  get record(): AlertProgress | null {
    return this.#progress;
  }

  /** Records `source` as the last handled; nothing when there is none. A failed write is logged. */
  remember(source: AlertSource | undefined): void {
    if (!source) {
      return;
    }
    this.#progress = { lastShownId: source.id, lastShownAtMs: source.receivedAtMs };
    try {
      this.#store.write(this.#progress);
    } catch (error) {
      this.#log(`alerts: could not record the shown alert (${String(error)}); it may play again after a restart`);
    }
  }
}

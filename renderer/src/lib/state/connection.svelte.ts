/**
 * The transport's status as the panel shows it: nothing while open, "Reconnecting…" after a drop, and a
 * plain instruction when the dock's token was refused. Events sent while the socket was down are gone, so
 * a return to `open` after a gap asks the app to reload its snapshot and histories.
 */
import { Listeners } from '../../../../shared/listeners';
import type { ConnectionStatus } from '../transport';

/** What the state needs from a transport connection. */
export interface ConnectionSource {
  readonly status: ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
}

/** The connection banner's state. */
export class ConnectionState {
  #source: ConnectionSource | null;
  #status = $state<ConnectionStatus>('open');
  #hadGap = false;
  #onReconnect = new Listeners<[]>();

  readonly message: string | null = $derived.by(() => {
    switch (this.#status) {
      case 'open':
        return null;
      case 'connecting':
        return 'Connecting to Greenroom…';
      case 'reconnecting':
        return 'Connection to Greenroom lost — reconnecting…';
      case 'unauthorized':
        return 'This dock URL is no longer valid. Copy the OBS dock URL from Greenroom’s Settings again.';
      case 'closed':
        return 'Disconnected from Greenroom. Reload this page to connect again.';
    }
  });

  constructor(source: ConnectionSource | null = null) {
    this.#source = source;
    this.#status = source?.status ?? 'open';
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  /**
   * Runs `listener` each time the link comes back after a drop: events main pushed meanwhile are gone, so
   * a view that shows main's state reads it again here. Returns the unsubscribe.
   */
  onReconnect(listener: () => void): () => void {
    return this.#onReconnect.add(listener);
  }

  /** Follows the source; `onResync` (and every `onReconnect` listener) runs when the link comes back after a drop. */
  connect(onResync: () => void): () => void {
    if (!this.#source) {
      return () => {};
    }
    this.#status = this.#source.status;
    const offResync = this.#onReconnect.add(onResync);
    const offStatus = this.#source.onStatus((status) => {
      this.#status = status;
      if (status === 'reconnecting') {
        this.#hadGap = true;
      } else if (status === 'open' && this.#hadGap) {
        this.#hadGap = false;
        this.#onReconnect.emit();
      }
    });
    return () => {
      offStatus();
      offResync();
    };
  }

  reset(): void {
    this.#status = this.#source?.status ?? 'open';
    this.#hadGap = false;
  }
}

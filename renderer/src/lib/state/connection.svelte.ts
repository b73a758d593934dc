/**
 * The transport's status as the panel shows it: nothing while open; while the panel is cut off from the
 * app, one line, "Greenroom is not running — reconnecting", with when it last tried; and a plain
 * instruction when the dock's token was refused. While cut off every write action is disabled
 * (`cutOff`), and figures the header shows are "as of" the moment the link dropped (`lostAtMs`). Events
 * sent while the socket was down are gone, so a return to `open` after a gap tells every `onReconnect`
 * listener to read main's state again ([design notes](../../../../docs/design-notes.md#when-greenroom-is-not-running)).
 */
import { Listeners } from '../../../../shared/listeners';
import { systemClock, type Clock } from '../clock';
import type { ConnectionStatus } from '../transport';

/** What the state needs from a transport connection; the reconnect details are the WebSocket's alone. */
export interface ConnectionSource {
  readonly status: ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  readonly lastAttemptMs?: number | null;
  onAttempt?(listener: (atMs: number) => void): () => void;
  retryNow?(): void;
}

/** The one line the panel shows while it is cut off from the app. */
export const NOT_RUNNING = 'Greenroom is not running — reconnecting';

const pad = (n: number): string => String(n).padStart(2, '0');
/** `08:12:05`: the reconnect steps are seconds apart, so the minute alone would look stuck. */
function clockWithSeconds(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The connection banner's state. */
export class ConnectionState {
  #source: ConnectionSource | null;
  #clock: Clock;
  #status = $state<ConnectionStatus>('open');
  #lastAttemptMs = $state<number | null>(null);
  #lostAtMs = $state<number | null>(null);
  #hadGap = false;
  #onReconnect = new Listeners<[]>();

  readonly message: string | null = $derived.by(() => {
    switch (this.#status) {
      case 'open':
        return null;
      case 'connecting':
        return 'Connecting to Greenroom…';
      case 'reconnecting':
        return NOT_RUNNING;
      case 'unauthorized':
        return 'This dock URL is no longer valid. Copy the OBS dock URL from Greenroom’s Settings again.';
      case 'closed':
        return 'Disconnected from Greenroom. Reload this page to connect again.';
    }
  });

  /** "Last tried at 08:12:05." while reconnecting, once an attempt has been made. */
  readonly lastTried: string | null = $derived(
    this.#status === 'reconnecting' && this.#lastAttemptMs !== null
      ? `Last tried at ${clockWithSeconds(this.#lastAttemptMs)}; it keeps trying until Greenroom is started again.`
      : null,
  );

  constructor(source: ConnectionSource | null = null, clock: Clock = systemClock) {
    this.#source = source;
    this.#clock = clock;
    this.#status = source?.status ?? 'open';
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  /**
   * The panel cannot reach the app: nothing it asks for can happen, so every write action is disabled. The
   * first connect is not that: calls made during it wait for the handshake, milliseconds away.
   */
  get cutOff(): boolean {
    return this.#status !== 'open' && this.#status !== 'connecting';
  }

  /** When the link dropped (ms), while it is down: what the header's figures are "as of". */
  get lostAtMs(): number | null {
    return this.#lostAtMs;
  }

  /** Whether "Try now" can do anything (a WebSocket waiting for its next step). */
  get canRetry(): boolean {
    return this.#status === 'reconnecting' && this.#source?.retryNow !== undefined;
  }

  retryNow(): void {
    this.#source?.retryNow?.();
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
    const source = this.#source;
    if (!source) {
      return () => {};
    }
    this.#status = source.status;
    this.#lastAttemptMs = source.lastAttemptMs ?? null;
    const offResync = this.#onReconnect.add(onResync);
    const offAttempt = source.onAttempt?.((atMs) => (this.#lastAttemptMs = atMs)) ?? (() => undefined);
    const offStatus = source.onStatus((status) => {
      if (this.#status === 'open' && status !== 'open') {
        this.#lostAtMs = this.#clock.now();
      }
      this.#status = status;
      this.#lastAttemptMs = source.lastAttemptMs ?? this.#lastAttemptMs;
      if (status === 'reconnecting') {
        this.#hadGap = true;
      } else if (status === 'open') {
        this.#lostAtMs = null;
        if (this.#hadGap) {
          this.#hadGap = false;
          this.#onReconnect.emit();
        }
      }
    });
    return () => {
      offStatus();
      offAttempt();
      offResync();
    };
  }

  reset(): void {
    this.#status = this.#source?.status ?? 'open';
    this.#lostAtMs = null;
    this.#hadGap = false;
  }
}

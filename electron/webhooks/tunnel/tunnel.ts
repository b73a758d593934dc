/**
 * The public door to the webhook receiver. Kick delivers webhooks only to a public HTTPS URL (
 * [reference §4](../../../docs/kick-wire-reference.md#4-what-the-api-lacks), [§5.1](../../../docs/kick-wire-reference.md#51-configuration-and-delivery)), so a desktop app needs a tunnel; this interface hides which one (localtunnel, the user's own
 * reverse proxy, or none) from the receiver and the panel.
 */
import { Listeners } from '../../../shared/listeners';

/** Where the tunnel stands; the connection-health panel shows it as is. */
export type TunnelStatus =
  | { state: 'off' }
  | { state: 'connecting'; attempt: number }
  | {
      state: 'up';
      /** The public base URL; the webhook URL is this plus the receiver's path. */
      url: string;
      /** Epoch ms of the last self-check through the public URL, if one ran. */
      checkedAt?: number;
      /** Whether that self-check reached our receiver; absent until one has run. */
      reachable?: boolean;
    }
  | {
      state: 'down';
      reason: string;
      /** When the next attempt starts, counted from when this status was reported. */
      retryInMs: number;
    };

export type TunnelStatusListener = (status: TunnelStatus) => void;

export interface Tunnel {
  /** Opens the tunnel; resolves once the first attempt has settled (up, or down with a retry planned). */
  start(): Promise<void>;
  /** Closes it, cancels any planned retry and any attempt in flight; status becomes `off`. */
  stop(): Promise<void>;
  status(): TunnelStatus;
  /** Called on every status change; returns the unsubscribe function. */
  onStatus(listener: TunnelStatusListener): () => void;
  /** The public base URL while up, else null. */
  publicUrl(): string | null;
}

/** One log line; the composition root decides where it goes. Lines that start with "warning:" need the streamer. */
export type TunnelLog = (line: string) => void;

/** Keeps the listener set and the current status; every adapter reports through one of these. */
export class StatusBroadcaster {
  #status: TunnelStatus = { state: 'off' };
  readonly #listeners = new Listeners<[TunnelStatus]>();

  get(): TunnelStatus {
    return this.#status;
  }

  set(status: TunnelStatus): void {
    this.#status = status;
    this.#listeners.emit(status);
  }

  subscribe(listener: TunnelStatusListener): () => void {
    return this.#listeners.add(listener);
  }
}

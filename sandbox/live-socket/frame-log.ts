/**
 * The frames the live socket sent, newest last ([what the admin API shows](../../docs/sandbox.md#live-socket-triggers)):
 * when each went out, on which room, to how many sockets. The webhook side has its attempt log
 * (`GET /deliveries`); this is the socket's, so a test or the chat storm benchmark can time a chat line from
 * the moment its frame left the sandbox, on the sandbox's clock. Bounded: the last `keep` frames.
 */
import type { LiveFrame } from './frames';
import { channelName } from './ids';

/** One sent frame, as the admin API answers it. */
export interface SentFrame {
  event: string;
  /** The channel it went out on, e.g. `chatrooms.70100001.v2`. */
  channel: string;
  /** The frame's `data.id` (a chat line's message id), or null when its data has none. */
  id: string | null;
  /** When the sandbox began sending it (its clock, the one `GET /deliveries` uses). */
  sentAtMs: number;
  /** Sockets it went to. */
  sockets: number;
}

/** Frames kept by default: more than 20 seconds of a 400-a-second chat storm. */
export const FRAME_LOG_KEEP = 10_000;

export class FrameLog {
  readonly #keep: number;
  #frames: SentFrame[] = [];

  constructor(keep = FRAME_LOG_KEEP) {
    this.#keep = Math.max(1, keep);
  }

  /** Notes a frame that went to at least one socket. */
  record(frame: LiveFrame, sentAtMs: number, sockets: number): void {
    if (sockets <= 0) {
      return;
    }
    const id = typeof frame.data === 'object' && frame.data !== null ? (frame.data as { id?: unknown }).id : null;
    this.#frames.push({
      event: frame.event,
      channel: channelName(frame.room, frame.broadcasterUserId),
      id: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
      sentAtMs,
      sockets,
    });
    // Trimmed in chunks, so a storm does not copy the array at every frame.
    if (this.#frames.length >= this.#keep * 2) {
      this.#frames = this.#frames.slice(-this.#keep);
    }
  }

  /** The last `limit` frames (at most what is kept), oldest first. */
  last(limit: number): SentFrame[] {
    return this.#frames.slice(-Math.min(limit, this.#keep));
  }

  get keep(): number {
    return this.#keep;
  }
}

/**
 * Chat lines the live socket brought before their signed webhook, and how far the webhooks trail it
 * ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)). The socket's arrival is kept by the
 * line's event key (`event-key.ts`) until its webhook comes; the gap between the two is one sample. Both
 * the keys and the samples are bounded, so a socket whose webhooks never come costs a fixed amount.
 */

/** Socket lines whose webhook is awaited, at most (a chat storm of 100 lines a second for 10 minutes). */
export const MAX_AWAITED = 60_000;
/** Gaps kept for the figures: the newest ones. */
export const MAX_TRAIL_SAMPLES = 500;

export interface TrailView {
  samples: number;
  p50Ms: number | null;
  p95Ms: number | null;
  /**
   * Socket lines whose webhook has not come yet, and when the oldest of them came: while Kick's webhooks are
   * held back, the gaps above only describe lines already caught up, so Health says this instead.
   */
  awaiting: number;
  oldestAwaitedAtMs: number | null;
}

export interface SocketFirst {
  /** A line the socket brought at `atMs`, now journaled under `eventKey`. */
  noteSocket(eventKey: string, atMs: number): void;
  /** Its webhook came at `atMs`; returns the gap in ms, or null when the socket did not bring it first this run. */
  noteWebhook(eventKey: string, atMs: number): number | null;
  trail(): TrailView;
}

export function createSocketFirst(limits: { maxAwaited?: number; maxSamples?: number } = {}): SocketFirst {
  const maxAwaited = limits.maxAwaited ?? MAX_AWAITED;
  const maxSamples = limits.maxSamples ?? MAX_TRAIL_SAMPLES;
  // Insertion order is arrival order: the oldest awaited line is dropped first.
  const awaited = new Map<string, number>();
  const gaps: number[] = [];
  return {
    noteSocket(eventKey, atMs) {
      awaited.delete(eventKey);
      awaited.set(eventKey, atMs);
      if (awaited.size > maxAwaited) {
        awaited.delete(awaited.keys().next().value!);
      }
    },
    noteWebhook(eventKey, atMs) {
      const socketAt = awaited.get(eventKey);
      if (socketAt === undefined) {
        return null;
      }
      awaited.delete(eventKey);
      const gap = Math.max(0, atMs - socketAt);
      gaps.push(gap);
      if (gaps.length > maxSamples) {
        gaps.shift();
      }
      return gap;
    },
    trail() {
      // Map order is arrival order (noteSocket re-inserts), so the first awaited line is the oldest.
      const waiting = { awaiting: awaited.size, oldestAwaitedAtMs: awaited.values().next().value ?? null };
      if (gaps.length === 0) {
        return { samples: 0, p50Ms: null, p95Ms: null, ...waiting };
      }
      const sorted = [...gaps].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
      return { samples: sorted.length, p50Ms: at(0.5), p95Ms: at(0.95), ...waiting };
    },
  };
}

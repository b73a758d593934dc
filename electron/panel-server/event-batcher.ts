/**
 * The panel server's outgoing events, serialised once for every client and sent together (a raid's chat
 * cost a WebSocket write per line). The first event after a quiet spell goes out at the end of
 * its event-loop turn; while events keep coming, frames are paced at most one per `minIntervalMs`
 * (a quarter of a display frame by default), because deliveries arrive one or two per turn and a frame per
 * turn still cost one socket write per delivery. A panel paints once per display frame, and an event held
 * back past the panel's next frame waits a whole frame more, so the pause is kept well short of one: at half
 * a frame, a raid's chat reached the screen 11–14 ms later at the 99th percentile (docs/decisions.md,
 * "Panel frames every 4 ms"). A result to a request flushes first (`flushNow`), so an event the request
 * caused still arrives before its answer.
 */
import type { WebSocket } from 'ws';
import type { EventChannel } from '../../shared/ipc-contract';
import { PANEL_CLOSE } from '../../shared/panel-protocol';

export interface EventBatcherDeps {
  /** The authorised sockets; one that fell too far behind is removed from it. */
  clients: Set<WebSocket>;
  /** A client with more than this still unsent is dropped (it reconnects and reloads its snapshot). */
  maxBufferedBytes: number;
  log: (line: string) => void;
  /** Least time between two frames while events keep coming; default 4 ms. 0 sends once per turn. */
  minIntervalMs?: number;
  /** Monotonic milliseconds; default `performance.now`. */
  now?: () => number;
}

export interface EventBatcher {
  broadcast(event: EventChannel, payload: unknown): void;
  /** Sends what this turn gathered now. */
  flushNow(): void;
}

export function createEventBatcher(options: EventBatcherDeps): EventBatcher {
  const { clients, maxBufferedBytes, log } = options;
  const minIntervalMs = options.minIntervalMs ?? 4;
  const now = options.now ?? (() => performance.now());
  let turn: string[] = [];
  let flushing: { cancel: () => void } | null = null;
  let lastFlushAt = Number.NEGATIVE_INFINITY;

  const schedule = (): void => {
    const wait = lastFlushAt + minIntervalMs - now();
    if (wait <= 0) {
      const immediate = setImmediate(flushTurn);
      flushing = { cancel: () => clearImmediate(immediate) };
    } else {
      const timer = setTimeout(flushTurn, wait);
      flushing = { cancel: () => clearTimeout(timer) };
    }
  };

  const flushTurn = (): void => {
    flushing = null;
    lastFlushAt = now();
    const events = turn;
    turn = [];
    if (events.length === 0) {
      return;
    }
    // One event keeps the single-event frame; several travel as `events` (shared/panel-protocol.ts).
    const text =
      events.length === 1
        ? `{"type":"event",${events[0]!.slice(1)}`
        : `{"type":"events","events":[${events.join(',')}]}`;
    for (const socket of clients) {
      if (socket.bufferedAmount > maxBufferedBytes) {
        // A stuck dock must not grow main's memory without bound.
        log('panel: dropping a client that fell too far behind');
        clients.delete(socket);
        socket.close(PANEL_CLOSE.overloaded, 'too far behind');
        socket.terminate();
      } else if (socket.readyState === socket.OPEN) {
        socket.send(text);
      }
    }
  };

  return {
    broadcast(event, payload) {
      if (clients.size === 0) {
        return;
      }
      try {
        turn.push(JSON.stringify({ event, payload }));
      } catch (error) {
        log(`panel: event ${event} could not be serialised: ${String(error)}`);
        return;
      }
      if (flushing === null) {
        schedule();
      }
    },
    flushNow() {
      if (flushing !== null) {
        flushing.cancel();
        flushTurn();
      }
    },
  };
}

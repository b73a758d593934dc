/**
 * The panel server's outgoing events. Events of one event-loop turn go out together, serialised once for
 * every client: one frame per turn instead of one per event (a raid's chat cost a WebSocket write per line;
 * issue 10). A result to a request flushes first (`flushNow`), so an event the request caused still
 * arrives before its answer.
 */
import type { WebSocket } from 'ws';
import type { EventChannel } from '../../shared/ipc-contract';
import { PANEL_CLOSE } from '../../shared/panel-protocol';

export interface EventBatcherOptions {
  /** The authorised sockets; one that fell too far behind is removed from it. */
  clients: Set<WebSocket>;
  /** A client with more than this still unsent is dropped (it reconnects and reloads its snapshot). */
  maxBufferedBytes: number;
  log: (line: string) => void;
}

export interface EventBatcher {
  broadcast(event: EventChannel, payload: unknown): void;
  /** Sends what this turn gathered now. */
  flushNow(): void;
}

export function createEventBatcher({ clients, maxBufferedBytes, log }: EventBatcherOptions): EventBatcher {
  let turn: string[] = [];
  let flushing: NodeJS.Immediate | null = null;

  const flushTurn = (): void => {
    flushing = null;
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
      flushing ??= setImmediate(flushTurn);
    },
    flushNow() {
      if (flushing !== null) {
        clearImmediate(flushing);
        flushTurn();
      }
    },
  };
}

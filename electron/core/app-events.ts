/**
 * The events main pushes to the panel (the contract's `EventPayloads`), as an in-process emitter both
 * transports subscribe to. A listener that throws is logged and the others still run: one broken window
 * must not silence the dock.
 */
import type { EventChannel, EventPayloads } from '../../shared/ipc-contract';
import { KeyedListeners } from '../../shared/listeners';

/** The subscribing side, as the transports see it. */
export interface AppEvents {
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
}

/** The composition root's side: it also emits. */
export interface AppEventEmitter extends AppEvents {
  emit<E extends EventChannel>(event: E, payload: EventPayloads[E]): void;
}

/** An emitter with no listeners; `log` hears about listeners that throw. */
export function createAppEvents(log: (line: string) => void): AppEventEmitter {
  const listeners = new KeyedListeners<EventChannel, [unknown]>((error) =>
    log(`events: a listener failed: ${error instanceof Error ? error.message : String(error)}`),
  );
  return {
    on: (event, listener) => listeners.add(event, listener as (payload: unknown) => void),
    emit: (event, payload) => listeners.emit(event, payload),
  };
}

/**
 * The events main pushes to the panel (the contract's `EventPayloads`), as an in-process emitter both
 * transports subscribe to. A listener that throws is logged and the others still run: one broken window
 * must not silence the dock.
 */
import type { EventChannel, EventPayloads } from '../../shared/ipc-contract';

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
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        listeners.set(event, (set = new Set()));
      }
      // Boxed so the same function added twice is two subscriptions, each removed by its own unsubscribe.
      const entry = (payload: never): void => listener(payload);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          (listener as (p: typeof payload) => void)(payload);
        } catch (error) {
          log(`events: a ${event} listener failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    },
  };
}

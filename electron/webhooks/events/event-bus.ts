/**
 * The in-process event bus between the receiver and the services (chat, moderation, rewards, panel state).
 * Listeners are typed by event name, so `on('chat.message.sent', (e) => e.payload.content)` type-checks.
 *
 * Isolation rules, because one misbehaving feature must not silence the others or the receiver:
 * - `publish` calls every matching listener and never throws; a listener that throws or rejects is logged.
 * - Async listeners are started, not awaited one after another, so a slow one does not delay the rest.
 * - Listeners registered or removed while an event is being delivered take effect from the next event.
 */
import type { KickEventType } from '../../../shared/kick/scopes';
import type { KickEvent } from './types';

/** A known event of type `T`, with its payload typed. */
export type KickEventOf<T extends KickEventType> = Extract<KickEvent, { kind: 'known'; type: T }>;

/** An event Greenroom could not read as a known type and version (kept, never dropped). */
export type UnknownKickEvent = Extract<KickEvent, { kind: 'unknown' }>;

/** A listener may be sync or async; what it returns is only watched for rejection. */
export type KickEventListener<E> = (event: E) => void | Promise<void>;

/** Which listener group `listenerCount` counts: one event type, every `onAny`, or every `onUnknown`. */
export type ListenerGroup = KickEventType | 'any' | 'unknown';

export interface EventBus {
  /** Listens to known events of one type. Returns the unsubscribe function. */
  on<T extends KickEventType>(type: T, listener: KickEventListener<KickEventOf<T>>): () => void;
  /** Listens to every event, known or unknown. */
  onAny(listener: KickEventListener<KickEvent>): () => void;
  /** Listens to events of unknown type or version (or with a field problem). */
  onUnknown(listener: KickEventListener<UnknownKickEvent>): () => void;
  /** Delivers `event` to its type's listeners (or the unknown ones), then to the `onAny` ones. Never throws. */
  publish(event: KickEvent): void;
  /** Listeners in one group, or in all groups when `group` is omitted. */
  listenerCount(group?: ListenerGroup): number;
  /** Resolves once every async listener started so far has settled (for shutdown and tests). */
  idle(): Promise<void>;
}

export interface EventBusDeps {
  log: (line: string) => void;
}

/** A registration, boxed so the same function added twice is two registrations, removed one at a time. */
interface Entry {
  listener: KickEventListener<never>;
}

/** Creates an empty bus. */
export function createEventBus({ log }: EventBusDeps): EventBus {
  const groups = new Map<ListenerGroup, Set<Entry>>();
  const inFlight = new Set<Promise<void>>();

  function add(group: ListenerGroup, listener: KickEventListener<never>): () => void {
    const entry: Entry = { listener };
    let set = groups.get(group);
    if (!set) {
      groups.set(group, (set = new Set()));
    }
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  function report(event: KickEvent, group: ListenerGroup, error: unknown): void {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    try {
      // Type and id only: payloads carry usernames and chat text that do not belong in logs.
      log(`event-bus: a '${group}' listener failed on ${event.type} ${event.messageId}: ${reason}`);
    } catch {
      // A broken logger must not break publishing either.
    }
  }

  function snapshot(group: ListenerGroup): Entry[] {
    const set = groups.get(group);
    return set ? [...set] : [];
  }

  function deliver(event: KickEvent, group: ListenerGroup, entries: Entry[]): void {
    for (const { listener } of entries) {
      try {
        const result = (listener as KickEventListener<KickEvent>)(event);
        if (isThenable(result)) {
          const settled = Promise.resolve(result).then(
            () => undefined,
            (error: unknown) => report(event, group, error),
          );
          inFlight.add(settled);
          void settled.finally(() => inFlight.delete(settled));
        }
      } catch (error) {
        report(event, group, error);
      }
    }
  }

  return {
    on: (type, listener) => add(type, listener),
    onAny: (listener) => add('any', listener),
    onUnknown: (listener) => add('unknown', listener),

    publish(event) {
      // Take both lists before calling anyone, so a listener's (un)subscribe applies from the next event.
      const group = event.kind === 'known' ? event.type : 'unknown';
      const specific = snapshot(group);
      const any = snapshot('any');
      deliver(event, group, specific);
      deliver(event, 'any', any);
    },

    listenerCount(group) {
      if (group !== undefined) {
        return groups.get(group)?.size ?? 0;
      }
      let total = 0;
      for (const set of groups.values()) {
        total += set.size;
      }
      return total;
    },

    async idle() {
      while (inFlight.size > 0) {
        await Promise.all([...inFlight]);
      }
    },
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

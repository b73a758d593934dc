/**
 * The one listener registry of the code base: `add` returns the unsubscribe,
 * `emit` calls every listener on a copy of the set, so one that unsubscribes or subscribes while being
 * called changes the next emit, not this one, and a listener that throws is reported to `onError` and
 * never stops the others. Platform-free: main, the preload, the panel and the sandbox all use it.
 */
export type Listener<A extends unknown[]> = (...args: A) => void;

export class Listeners<A extends unknown[]> {
  readonly #set = new Set<Listener<A>>();
  readonly #onError: (error: unknown) => void;

  /** `onError` hears about a listener that threw; by default the error is rethrown on its own turn. */
  constructor(onError?: (error: unknown) => void) {
    this.#onError =
      onError ??
      ((error) =>
        queueMicrotask(() => {
          throw error;
        }));
  }

  /** Adds `listener`; the same function added twice is two subscriptions, each removed by its own call. */
  add(listener: Listener<A>): () => void {
    const entry: Listener<A> = (...args) => listener(...args);
    this.#set.add(entry);
    return () => {
      this.#set.delete(entry);
    };
  }

  emit(...args: A): void {
    for (const listener of [...this.#set]) {
      try {
        listener(...args);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  get size(): number {
    return this.#set.size;
  }

  clear(): void {
    this.#set.clear();
  }
}

/** Listeners per key (an event channel): the same rules, one registry per key made as needed. */
export class KeyedListeners<K, A extends unknown[]> {
  readonly #byKey = new Map<K, Listeners<A>>();
  readonly #onError: ((error: unknown) => void) | undefined;

  constructor(onError?: (error: unknown) => void) {
    this.#onError = onError;
  }

  add(key: K, listener: Listener<A>): () => void {
    let listeners = this.#byKey.get(key);
    if (!listeners) {
      listeners = new Listeners<A>(this.#onError);
      this.#byKey.set(key, listeners);
    }
    return listeners.add(listener);
  }

  emit(key: K, ...args: A): void {
    this.#byKey.get(key)?.emit(...args);
  }

  clear(): void {
    this.#byKey.clear();
  }
}

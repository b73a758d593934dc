/**
 * Short results of what the streamer just did ("12 accepted", "Signed out"), shown by one `Toasts` region
 * App mounts once. Each leaves by itself after a few seconds on the panel's clock (a failure stays longer),
 * unless the streamer opened its details or closed it first. Components reach the one store through
 * Svelte's context (`provideToasts` in App, `useToasts` anywhere below it), so no prop is threaded through
 * every view and nothing is a module-level singleton.
 */
import { getContext, setContext } from 'svelte';
import type { Clock } from '../clock';

export type ToastTone = 'ok' | 'error';

export interface Toast {
  id: number;
  tone: ToastTone;
  /** One line in the streamer's words: "10 accepted, 2 failed". */
  text: string;
  /** What went wrong, one line each, behind "Details". */
  details: readonly string[];
}

export interface ToastInput {
  tone?: ToastTone;
  text: string;
  details?: readonly string[];
}

/** How long a toast stays: long enough to read a line, longer when something failed. */
export const TOAST_MS: Record<ToastTone, number> = { ok: 5_000, error: 10_000 };
/** More than this and the oldest goes: a burst of results never buries the panel. */
const MAX_SHOWN = 4;

export class ToastsState {
  #clock: Clock;
  #items = $state.raw<Toast[]>([]);
  // Bookkeeping only (the toasts shown are the reactive part), so a plain map.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #timers = new Map<number, () => void>();
  #next = 1;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get items(): readonly Toast[] {
    return this.#items;
  }

  /** Shows a toast; returns its id. */
  show(input: ToastInput): number {
    const tone = input.tone ?? 'ok';
    const toast: Toast = { id: this.#next++, tone, text: input.text, details: input.details ?? [] };
    const kept = this.#items.slice(-(MAX_SHOWN - 1));
    for (const gone of this.#items.filter((t) => !kept.includes(t))) {
      this.#stopTimer(gone.id);
    }
    this.#items = [...kept, toast];
    this.#timers.set(
      toast.id,
      this.#clock.setTimeout(() => this.dismiss(toast.id), TOAST_MS[tone]),
    );
    return toast.id;
  }

  /** The streamer is reading it (opened its details): it stays until closed. */
  keep(id: number): void {
    this.#stopTimer(id);
  }

  dismiss(id: number): void {
    this.#stopTimer(id);
    this.#items = this.#items.filter((t) => t.id !== id);
  }

  /** Stops every timer (the panel is closing). */
  dispose(): void {
    for (const id of [...this.#timers.keys()]) {
      this.#stopTimer(id);
    }
  }

  #stopTimer(id: number): void {
    this.#timers.get(id)?.();
    this.#timers.delete(id);
  }
}

const KEY = Symbol('greenroom.toasts');

/** Makes `toasts` the store every component below this one reaches with `useToasts()`. */
export function provideToasts(toasts: ToastsState): ToastsState {
  return setContext(KEY, toasts);
}

/**
 * The panel's one toast store. A component rendered on its own (a view's test that does not look at
 * results) gets a store nothing shows, whose toasts never leave, so no timer outlives the test.
 */
export function useToasts(): ToastsState {
  return getContext<ToastsState | undefined>(KEY) ?? new ToastsState(UNSHOWN_CLOCK);
}

const UNSHOWN_CLOCK: Clock = {
  now: () => 0,
  setTimeout: () => () => undefined,
  setInterval: () => () => undefined,
};

/** The context a test renders a component with, so `useToasts()` finds `toasts`. */
export function toastsContext(toasts: ToastsState): Map<symbol, ToastsState> {
  // Svelte's context is a plain map, read once at mount.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  return new Map([[KEY, toasts]]);
}

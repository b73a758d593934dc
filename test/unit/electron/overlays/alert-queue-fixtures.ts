/**
 * The alert queue's tests share this: a clock and timers that move only when a test says so, alerts as
 * the queue receives them, and a queue wired to record what it shows, ends and stores.
 */
import { DEFAULT_OVERLAY_SETTINGS, type AlertView, type OverlaySettings } from '../../../../shared/overlays';
import { type AlertProgress, AlertQueue, type AlertQueueDeps } from '../../../../electron/overlays/alert-queue';
import type { AlertSource } from '../../../../electron/services/alert-source';
import type { Clock } from '../../../../electron/core/clock';
import type { SetTimer } from '../../../../electron/core/scheduler';

/** A clock and a scheduler on one fake time line: `advance` fires every timer that falls due, in order. */
export class FakeTime implements Clock {
  #now: number;
  #next = 1;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();

  constructor(startMs = 1_000_000) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  readonly setTimer: SetTimer = (callback, ms) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + ms, callback });
    return { cancel: () => void this.#timers.delete(id) };
  };

  /** Timers waiting. */
  get pending(): number {
    return this.#timers.size;
  }

  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) {
        break;
      }
      this.#timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].callback();
    }
    this.#now = end;
  }
}

/** A gift of `count` subs, its event `ageMs` old at `time`'s now when made. */
export function gift(time: FakeTime, i: number, count = 1, ageMs = 0): AlertSource {
  return {
    id: `m${i}`,
    kind: 'gifted-subs',
    fields: { user: `gifter${i}`, count: String(count) },
    amount: count,
    receivedAtMs: time.now(),
    eventAtMs: time.now() - ageMs,
  };
}

export interface QueueWorld {
  time: FakeTime;
  shown: AlertView[];
  ended: string[];
  changes: { count: number };
  disk: { progress: AlertProgress | null };
  settings: { maxAgeSec: number; alerts: OverlaySettings['alerts'] };
  make(extra?: Partial<AlertQueueDeps>): AlertQueue;
  /** A queue past its start-up replay, with one alert box open. */
  playing(): AlertQueue;
}

export function queueWorld(stored: AlertProgress | null = null): QueueWorld {
  const world: QueueWorld = {
    time: new FakeTime(),
    shown: [],
    ended: [],
    changes: { count: 0 },
    disk: { progress: stored },
    settings: { maxAgeSec: 120, alerts: structuredClone(DEFAULT_OVERLAY_SETTINGS.alerts) },
    make: (extra = {}) =>
      new AlertQueue({
        clock: world.time,
        setTimer: world.time.setTimer,
        templates: () => world.settings.alerts,
        maxAgeMs: () => world.settings.maxAgeSec * 1000,
        mediaUrl: (name) => `/overlay/media/${name}`,
        progress: { read: () => world.disk.progress, write: (p) => (world.disk.progress = p) },
        onShow: (alert) => world.shown.push(alert),
        onEnd: (id) => world.ended.push(id),
        onChange: () => (world.changes.count += 1),
        log: () => undefined,
        ...extra,
      }),
    playing: () => {
      const queue = world.make();
      queue.endReplay();
      queue.setAudience(1);
      return queue;
    },
  };
  return world;
}

/** The ids shown so far. */
export const ids = (world: QueueWorld): string[] => world.shown.map((alert) => alert.id);

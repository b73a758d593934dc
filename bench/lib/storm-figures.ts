/**
 * The chat storm's figures: what each is held to, and the two read from raw measurements here, the share of
 * janky frames and the app's resident memory growth ([bench/README.md](../README.md#the-storm-in-rounds)).
 */
import type { BenchFigure, BenchResult } from '../types';
import { round, rssMb } from './stats';

/** One frame of a 60 Hz display, the grid headless Chromium draws on. */
export const FRAME_MS = 1000 / 60;

/** A measured interval as the whole frames it spans (at least one). */
export const onFrameGrid = (interval: number): number => Math.max(1, Math.round(interval / FRAME_MS)) * FRAME_MS;

/**
 * The share of frames, in percent, that took two frames of the display or more (33.3 ms on the grid: at
 * least one frame dropped). The p95 sits on the boundary between 16.7 and 33.3 and flips between runs; the
 * share says how many frames were late. NaN when no frame was seen.
 */
export function jankyFramesPct(intervals: readonly number[]): number {
  if (intervals.length === 0) {
    return Number.NaN;
  }
  const janky = intervals.filter((interval) => onFrameGrid(interval) >= 2 * FRAME_MS - 0.5).length;
  return round((janky / intervals.length) * 100, 2);
}

/**
 * The app's resident memory in MB, from /proc/<pid>/status of the app's own process (not this benchmark's);
 * NaN where that cannot be read (no /proc, the process gone).
 */
export function appRssMb(pid: number | undefined, read: (path: string) => string): number {
  if (pid === undefined) {
    return Number.NaN;
  }
  try {
    return rssMb(pid, read);
  } catch {
    return Number.NaN;
  }
}

/**
 * A process's resident memory by kind of mapping, from /proc/<pid>/smaps: file-backed (the Node binary and
 * libraries as far as they were touched), malloc's main arena (`[heap]`), and anonymous memory (V8's heap pages,
 * malloc's other arenas, thread stacks), in MB; "unreadable" where /proc cannot be read (the process gone).
 */
export function residentByKind(pid: number | undefined, read: (path: string) => string): string {
  let smaps: string;
  try {
    smaps = pid === undefined ? '' : read(`/proc/${pid}/smaps`);
  } catch {
    smaps = '';
  }
  if (smaps === '') {
    return 'unreadable';
  }
  const kinds = new Map<string, number>();
  let kind = 'anonymous';
  for (const line of smaps.split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const path = mapping[1]!;
      // A deleted file or shared memory (`/memfd:… (deleted)`, `/SYSV…`) is memory, not a file on disk.
      const memory = path.endsWith(' (deleted)') || path.startsWith('/memfd:') || path.startsWith('/SYSV');
      kind = path === '' || memory ? 'anonymous' : path.startsWith('/') ? 'files' : path;
    } else if (line.startsWith('Rss:')) {
      kinds.set(kind, (kinds.get(kind) ?? 0) + Number(/(\d+)/.exec(line)![1]) / 1024);
    }
  }
  // Kinds under 0.5 MB (stacks, vdso) are summed as "other", so the kinds add up to the resident memory.
  const small = [...kinds].filter(([, size]) => size < 0.5).reduce((sum, [, size]) => sum + size, 0);
  return [...kinds]
    .filter(([, size]) => size >= 0.5)
    .concat(small >= 0.05 ? [['other', small]] : [])
    .map(([name, size]) => `${name} ${size.toFixed(1)}`)
    .join(', ');
}

/** The storm's rate the budget is set at, messages a second. */
const BUDGET_RATE = 400;
/** Half of each frame for the panel's main thread: 8.3 ms. */
export const MAIN_THREAD_MS_PER_FRAME = round(FRAME_MS / 2, 1);
/** Half a core for the renderer at 400 messages a second: 1,250 µs of CPU per message. */
export const RENDERER_CPU_US_PER_MESSAGE = 1_000_000 / 2 / BUDGET_RATE;
/** A quarter of a core for the app at 400 messages a second: 625 µs of CPU per message. */
export const APP_CPU_US_PER_MESSAGE = 1_000_000 / 4 / BUDGET_RATE;

/** The storm's figures, in the order printed, for `total` messages. */
export function stormFigures(total: number): BenchFigure[] {
  return [
    { name: 'chat-frame-p95-ms', unit: 'ms', target: { op: '<=', value: 16.7 } },
    { name: 'chat-janky-frames-pct', unit: '%', target: { op: '<=', value: 1 } },
    { name: 'chat-latency-p99-ms', unit: 'ms', target: { op: '<=', value: 50 } },
    { name: 'chat-heap-growth', unit: 'x', target: { op: '<=', value: 1.1 } },
    { name: 'chat-app-rss-growth-mb', unit: 'MB', target: { op: '<=', value: 30 } },
    { name: 'chat-delivered', unit: `of ${total}`, target: { op: '>=', value: total } },
    { name: 'chat-auto-pauses', unit: '', target: { op: '<=', value: 0 } },
    { name: 'chat-duplicates', unit: '', target: { op: '<=', value: 0 } },
    // The budget per message (storm-budget.ts): at 400 messages a second, the panel within half of each 16.7 ms
    // frame, its renderer within half a core, the app within a quarter of one (bench/README.md says why).
    { name: 'chat-app-cpu-us-per-message', unit: 'µs', target: { op: '<=', value: APP_CPU_US_PER_MESSAGE } },
    { name: 'chat-renderer-cpu-us-per-message', unit: 'µs', target: { op: '<=', value: RENDERER_CPU_US_PER_MESSAGE } },
    { name: 'chat-main-thread-ms-per-frame', unit: 'ms', target: { op: '<=', value: MAIN_THREAD_MS_PER_FRAME } },
  ];
}

/** The figures with their measured values (a name missing from `values` is NaN). */
export function measuredStormFigures(total: number, values: Record<string, number>): BenchResult[] {
  return stormFigures(total).map((figure) => ({ ...figure, value: values[figure.name] ?? Number.NaN }));
}

/**
 * The chat storm's budget per message ([bench/README.md](../README.md#the-budget-per-chat-message)): what one chat
 * message costs the app's process and Chromium's renderer in CPU time, and what each frame drawn costs the panel's
 * main thread in CPU time, read at two moments of the storm. CPU time, unlike a latency, a frame interval or
 * Chromium's `TaskDuration` (a task's wall time, which counts the moments it waited for a core), does not grow
 * when another process takes the core: it is the figure that holds on a busy machine.
 */
import { round } from './stats';

/** What is read at each end of the measured stretch. */
export interface BudgetReading {
  /** CPU milliseconds the app's process (and any children) has used so far, user plus kernel. */
  appCpuMs: number;
  /** CPU milliseconds the panel's renderer process has used so far, all its threads. */
  rendererCpuMs: number;
  /** CPU milliseconds the page's main thread (the renderer's main thread) has used so far. */
  mainThreadCpuMs: number;
  /** Animation frames the page has drawn so far (the page probe's `framesSeen`). */
  framesSeen: number;
}

/** The three budget figures, by name; NaN where a stretch had no messages or no frames to divide by. */
export function budgetFigures(
  cpu: {
    start: Pick<BudgetReading, 'appCpuMs' | 'rendererCpuMs'>;
    end: Pick<BudgetReading, 'appCpuMs' | 'rendererCpuMs'>;
  },
  frames: {
    start: Pick<BudgetReading, 'mainThreadCpuMs' | 'framesSeen'>;
    end: Pick<BudgetReading, 'mainThreadCpuMs' | 'framesSeen'>;
  },
  messages: number,
): Record<
  'chat-app-cpu-us-per-message' | 'chat-renderer-cpu-us-per-message' | 'chat-main-thread-ms-per-frame',
  number
> {
  const perMessage = (startMs: number, endMs: number): number =>
    messages > 0 && Number.isFinite(startMs) && Number.isFinite(endMs)
      ? round(((endMs - startMs) * 1000) / messages)
      : Number.NaN;
  const drawn = frames.end.framesSeen - frames.start.framesSeen;
  return {
    'chat-app-cpu-us-per-message': perMessage(cpu.start.appCpuMs, cpu.end.appCpuMs),
    'chat-renderer-cpu-us-per-message': perMessage(cpu.start.rendererCpuMs, cpu.end.rendererCpuMs),
    'chat-main-thread-ms-per-frame':
      drawn > 0 ? round((frames.end.mainThreadCpuMs - frames.start.mainThreadCpuMs) / drawn, 2) : Number.NaN,
  };
}

/**
 * `npm run bench -- obs`: OBS in the control room (docs/obs.md), against Debian's real OBS, headless. Each
 * figure's module says what it runs; without OBS installed each prints NaN with one line saying why.
 * - `obs-action-latency-ms` (bench/obs-action-latency.ts): the OBS actions on events.
 * - `obs-monitor-cpu-pct` (bench/obs-monitor-cpu.ts): the app's CPU while it watches a streaming OBS.
 */
import { obsActionLatency, obsActionLatencyFigures } from './obs-action-latency';
import { obsMonitorCpu, obsMonitorCpuFigures } from './obs-monitor-cpu';
import type { BenchFigure, BenchResult } from './types';

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [...obsActionLatencyFigures, ...obsMonitorCpuFigures];

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  // Before the CPU minute, so each figure has OBS to itself.
  results.push(...(await obsActionLatency()));
  results.push(...(await obsMonitorCpu()));
  return results;
}

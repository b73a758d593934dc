/**
 * The dedup id memory's footprint: one million Kick message ids (ULIDs, a delivery every 100 ms, so about
 * 28 hours of a busy chat) added with the default sizes, measured as the process's heap and array-buffer
 * growth after a full garbage collection, so nothing the memory does not hold is counted. The targets are
 * the bound stated in `electron/webhooks/dedup/id-memory.ts` and docs/decisions.md: 16 bytes per id (plus the
 * open generation's table), and the 32 MiB cap.
 *
 * `dedup-memory-resident-ratio` compares the growth of resident memory outside the JS heap with the array
 * buffers the memory holds. Sealing runs used to allocate and drop several run-sized buffers each time,
 * and the allocator kept the holes: 3.5 times what the memory holds. It read 1.15–1.32 in the runs since, the rest being
 * the allocator's per-thread arenas (1.0 with one arena); see docs/decisions.md, "The id memory
 * allocates once per run".
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_MAX_MEMORY_BYTES } from '../electron/webhooks/dedup/id-memory';
import type { DedupMeasurement } from './lib/dedup-memory-process';
import { measuredFigures } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';

const IDS = 1_000_000;

export async function run(): Promise<BenchResult[]> {
  const script = fileURLToPath(new URL('./lib/dedup-memory-process.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', script], {
    encoding: 'utf8',
  });
  const measured = JSON.parse(stdout.trim()) as DedupMeasurement;
  if (measured.ids !== IDS || measured.spilledRuns !== 0) {
    throw new Error(`dedup-memory: expected ${IDS} ids in memory, got ${stdout.trim()}`);
  }
  const grown = measured.keptBytes;
  return measuredFigures(figures, {
    'dedup-memory-bytes-per-id': grown / IDS,
    'dedup-memory-mb': grown / (1024 * 1024),
    'dedup-memory-resident-ratio': measured.outsideHeapBytes / measured.arrayBufferBytes,
  });
}

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [
  { name: 'dedup-memory-bytes-per-id', unit: 'B', target: { op: '<=', value: 20 } },
  {
    name: 'dedup-memory-mb',
    unit: `MB for ${IDS} ids`,
    target: { op: '<=', value: DEFAULT_MAX_MEMORY_BYTES / (1024 * 1024) },
  },
  { name: 'dedup-memory-resident-ratio', unit: 'x', target: { op: '<=', value: 1.5 } },
];

/**
 * The dedup id memory's footprint: one million Kick message ids (ULIDs, a delivery every 100 ms, so about
 * 28 hours of a busy chat) added with the default sizes, measured as the process's heap and array-buffer
 * growth after a full garbage collection, so nothing the memory does not hold is counted. The targets are
 * the bound stated in `electron/webhooks/id-memory.ts` and docs/decisions.md: 16 bytes per id (plus the
 * open generation's table), and the 32 MiB cap.
 *
 * `dedup-memory-resident-ratio` compares the growth of resident memory outside the JS heap with the array
 * buffers the memory holds. Sealing runs used to allocate and drop several run-sized buffers each time,
 * and the allocator kept the holes: 3.5 times what the memory holds. It is 1.3–1.4 now, the rest being
 * the allocator's per-thread arenas (1.0 with one arena); see docs/decisions.md, "The id memory
 * allocates once per run".
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createUlid } from '../electron/core/ids';
import { DEFAULT_MAX_MEMORY_BYTES, IdMemory } from '../electron/webhooks/id-memory';
import type { BenchResult } from './types';

const IDS = 1_000_000;
const BATCH = 10_000;
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);

/** Full collections (twice: the first leaves what only it made unreachable), without --expose-gc at start. */
function collect(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

/**
 * After a full collection: what the heap and array buffers hold, and the resident memory outside the JS
 * heap's own pages (whose size follows the collector's sizing, driven here by the ids' garbage strings).
 */
function used(): { kept: number; arrayBuffers: number; outsideHeap: number } {
  collect();
  const { heapUsed, heapTotal, arrayBuffers, rss } = process.memoryUsage();
  return { kept: heapUsed + arrayBuffers, arrayBuffers, outsideHeap: rss - heapTotal };
}

export async function run(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'greenroom-bench-dedup-'));
  try {
    const before = used();
    const memory = new IdMemory({ dir, retentionMs: 48 * 3_600_000 });
    let now = T0;
    // In batches, so the ids' strings (garbage once added) never pile up in the measurement.
    for (let done = 0; done < IDS; done += BATCH) {
      for (let i = 0; i < BATCH; i++) {
        now += 100;
        memory.add(createUlid(now), now);
      }
    }
    const after = used();
    const grown = after.kept - before.kept;
    const outsideRatio = (after.outsideHeap - before.outsideHeap) / (after.arrayBuffers - before.arrayBuffers);
    const stats = memory.stats();
    memory.close();
    if (stats.ids !== IDS || stats.spilledRuns !== 0) {
      throw new Error(`dedup-memory: expected ${IDS} ids in memory, got ${JSON.stringify(stats)}`);
    }
    return [
      { name: 'dedup-memory-bytes-per-id', value: grown / IDS, unit: 'B', target: { op: '<=', value: 20 } },
      {
        name: 'dedup-memory-mb',
        value: grown / (1024 * 1024),
        unit: `MB for ${IDS} ids`,
        target: { op: '<=', value: DEFAULT_MAX_MEMORY_BYTES / (1024 * 1024) },
      },
      {
        name: 'dedup-memory-resident-ratio',
        value: outsideRatio,
        unit: 'x',
        target: { op: '<=', value: 1.5 },
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

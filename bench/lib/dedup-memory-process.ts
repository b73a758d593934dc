/**
 * The dedup memory benchmark's measurement, in a process of its own (`bench/dedup-memory.ts` starts it), so
 * the resident memory it reads is not moved by whatever the benchmark run did before: in one shared process
 * an earlier module's memory going back to the system made the figure negative. Prints one JSON line.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUlid } from '../../electron/core/ids';
import { IdMemory } from '../../electron/webhooks/dedup/id-memory';

const IDS = 1_000_000;
const BATCH = 10_000;
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);

/** Full collections (twice: the first leaves what only it made unreachable); started with `--expose-gc`. */
function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    throw new Error('dedup-memory-process: run it with --expose-gc');
  }
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

/** What `bench/dedup-memory.ts` reads back. */
export interface DedupMeasurement {
  ids: number;
  spilledRuns: number;
  keptBytes: number;
  outsideHeapBytes: number;
  arrayBufferBytes: number;
}

async function measure(): Promise<DedupMeasurement> {
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
    const stats = memory.stats();
    memory.close();
    return {
      ids: stats.ids,
      spilledRuns: stats.spilledRuns,
      keptBytes: after.kept - before.kept,
      outsideHeapBytes: after.outsideHeap - before.outsideHeap,
      arrayBufferBytes: after.arrayBuffers - before.arrayBuffers,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

process.stdout.write(`${JSON.stringify(await measure())}\n`);

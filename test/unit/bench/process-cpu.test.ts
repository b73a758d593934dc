import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isMainThread, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { CpuLedger, processCpuMs, threadCpuMs, threadGroup } from '../../../bench/lib/process-cpu';

/**
 * Keeps the calling thread busy until the process has used `ms` more of CPU time. CPU time, not wall time: on a
 * loaded machine a wall-time spin gets a fraction of a core and reads as less. (The test's own process is one
 * Vitest fork; its other threads use next to nothing meanwhile.)
 */
function spinCpu(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) {
      return;
    }
  }
}

const onLinux = process.platform === 'linux';
// The split names the process's main thread by its id, so these tests run on it (Vitest's forks, not its threads).
const onLinuxMain = onLinux && isMainThread;
const nodeMajor = Number(process.versions.node.split('.')[0]);

describe('where a process’s CPU goes, by group of threads', () => {
  it('sorts a thread by its id and the name Node and V8 give it', () => {
    expect(threadGroup(100, 100, 'MainThread')).toBe('main thread');
    expect(threadGroup(100, 100, 'node')).toBe('main thread'); // Node 20 leaves the process's name on it
    expect(threadGroup(100, 101, 'V8Worker')).toBe("V8's helpers");
    expect(threadGroup(100, 102, 'libuv-worker')).toBe("libuv's pool");
    expect(threadGroup(100, 103, 'SignalInspector')).toBe('other threads');
    expect(threadGroup(100, 104, 'WorkerThread')).toBe('other threads'); // a worker_threads Worker
    expect(threadGroup(100, 105, 'node')).toBe('other threads'); // any thread but the main one, on Node 20
  });

  it.skipIf(!onLinuxMain)('puts the main thread’s time under its group, and sums the groups to the process', () => {
    const before = threadCpuMs(process.pid)!;
    spinCpu(300);
    const after = threadCpuMs(process.pid)!;
    const main = after.get('main thread')! - (before.get('main thread') ?? 0);
    // The spin used 300 ms of the process's CPU, nearly all of it on this thread.
    expect(main).toBeGreaterThanOrEqual(250);
    expect(main).toBeLessThanOrEqual(400);
    // The group is the main thread's own count, which /proc also gives in 10 ms ticks, read a moment later and cut
    // to the tick below (two ticks of leeway: the kernel rounds the tick count from its finer one).
    const ticks = processCpuMs(process.pid, process.pid)!;
    expect(Math.abs(after.get('main thread')! - ticks)).toBeLessThanOrEqual(20);
    // Every thread counted once: the groups add up to the process, within a tick per thread.
    const whole = processCpuMs(process.pid)!;
    const summed = [...after.values()].reduce((sum, ms) => sum + ms, 0);
    expect(Math.abs(summed - whole)).toBeLessThanOrEqual(10 * 64);
  });

  it.skipIf(!onLinuxMain)('adds up every thread of a group, each counted once', async () => {
    // Two worker threads, both in "other threads", each busy 300 ms of wall time and then idle until ended.
    const source = `const { parentPort } = require('node:worker_threads');
      const end = performance.now() + 300; while (performance.now() < end) {}
      parentPort.postMessage('done'); setInterval(() => {}, 1000);`;
    const workers = [0, 1].map(() => new Worker(source, { eval: true }));
    try {
      await Promise.all(workers.map((w) => new Promise((resolve) => w.once('message', resolve))));
      const groups = threadCpuMs(process.pid)!;
      // The same threads' time from each one's own stat line (10 ms ticks), grouped the same way.
      let expected = 0;
      let threads = 0;
      for (const tid of readdirSync(`/proc/${process.pid}/task`)) {
        const name = readFileSync(`/proc/${process.pid}/task/${tid}/comm`, 'utf8').trim();
        if (threadGroup(process.pid, Number(tid), name) === 'other threads') {
          expected += processCpuMs(process.pid, Number(tid)) ?? 0;
          threads++;
        }
      }
      // Both workers ran (each got a good part of its 300 ms even on a loaded machine), and none was left out.
      expect(groups.get('other threads')!).toBeGreaterThanOrEqual(100);
      expect(Math.abs(groups.get('other threads')! - expected)).toBeLessThanOrEqual(10 * (threads + 1));
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  });

  it.skipIf(!onLinux || nodeMajor < 24)('finds V8’s helpers and libuv’s pool by their names on Node 24', async () => {
    await readFile(import.meta.filename); // a file call, so libuv's pool has started
    const groups = threadCpuMs(process.pid)!;
    expect(groups.has("V8's helpers")).toBe(true);
    expect(groups.has("libuv's pool")).toBe(true);
  });

  it.skipIf(!onLinux)('is null for a process that is not there', () => {
    expect(threadCpuMs(2 ** 22 + 1)).toBeNull();
    expect(threadCpuMs(undefined)).toBeNull();
  });

  it.skipIf(!onLinuxMain)('prints the median round’s split of the named process in its line', async () => {
    const ledger = new CpuLedger();
    // Three rounds of 100 deliveries: 100, 200 and 400 ms of the main thread's CPU, so the median round is the
    // second, about 2,000 µs a delivery. The split shown is that round's, not each group's median of its own.
    for (const ms of [100, 200, 400]) {
      await ledger.measure('the test', { self: process.pid }, 100, () => Promise.resolve(spinCpu(ms)), 'self');
    }
    const [line] = ledger.lines();
    const match = /^the test: self (\d+) µs \(main thread (\d+)[,;]/.exec(line!);
    expect(match, line).not.toBeNull();
    const [whole, main] = [Number(match![1]), Number(match![2])];
    expect(main).toBeGreaterThanOrEqual(1700);
    expect(main).toBeLessThanOrEqual(2500);
    // The process's figure is read in 10 ms ticks, 100 µs a delivery here; the thread's is finer.
    expect(Math.abs(whole - main)).toBeLessThanOrEqual(300);
    // The round was nothing but the spin, so the main thread was on a core for most of it.
    const busy = /; main thread busy (\d+)% of the round\)/.exec(line!);
    expect(busy, line).not.toBeNull();
    expect(Number(busy![1])).toBeGreaterThanOrEqual(20);
    expect(Number(busy![1])).toBeLessThanOrEqual(105);
    expect(line).toContain('(CPU per delivery, median of 3 rounds)');
  });

  it.skipIf(!onLinuxMain)('shows the median round’s groups together, not each group’s median of its own', async () => {
    // A worker thread (in "other threads") busy for a given wall time on request, the main thread waiting meanwhile.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
      parentPort.on('message', (ms) => { const end = performance.now() + ms; while (performance.now() < end) {}
        parentPort.postMessage(ms); });`,
      { eval: true },
    );
    const busyWorker = (ms: number): Promise<unknown> =>
      new Promise((resolve) => {
        worker.once('message', resolve);
        worker.postMessage(ms);
      });
    try {
      const ledger = new CpuLedger();
      // Main and worker ms a round: (100, 500), (200, 0), (800, 400). By the process's total the median round is
      // the first (about 600 ms, between 200 and 1,200, with room for a loaded machine to shorten the worker's
      // share): main about 1,000 µs a delivery, the worker about 5,000. Each group's own median would read main
      // 2,000 and the worker 4,000.
      for (const [main, other] of [
        [100, 500],
        [200, 0],
        [800, 400],
      ] as const) {
        await ledger.measure(
          'mixed',
          { self: process.pid },
          100,
          async () => {
            spinCpu(main);
            if (other > 0) {
              await busyWorker(other);
            }
          },
          'self',
        );
      }
      const [line] = ledger.lines();
      const main = /\(main thread (\d+)/.exec(line!);
      const other = /other threads (\d+)/.exec(line!);
      expect(main, line).not.toBeNull();
      expect(other, line).not.toBeNull();
      expect(Number(main![1])).toBeLessThanOrEqual(1500);
      expect(Number(other![1])).toBeGreaterThanOrEqual(2000);
    } finally {
      await worker.terminate();
    }
  });

  it('leaves a line as it was without a process to split', async () => {
    const ledger = new CpuLedger();
    await ledger.measure('plain', { self: process.pid }, 10, () => Promise.resolve());
    expect(ledger.lines()[0]).not.toContain('(main thread');
  });
});

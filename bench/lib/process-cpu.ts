/**
 * CPU time a process has used, user plus kernel, all its threads (libuv's pool doing the journal's fdatasync
 * included), from /proc on Linux. The whole-app benchmarks use it to say where a delivery's CPU goes when two
 * cores are shared by the app, the floor, the load generator and a dock (docs/decisions.md, "Why
 * webhook-ingest-ratio stays short of 0.8 here").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { median } from './stats';

/** Linux reports process times in clock ticks; 100 per second on every kernel we run on (`getconf CLK_TCK`). */
const TICK_MS = 10;

/**
 * CPU milliseconds `pid` has used so far, or null where /proc is not available; with `thread`, that one
 * thread's (a process's main thread has the process's own id).
 */
export function processCpuMs(pid: number | undefined, thread?: number): number | null {
  if (pid === undefined || process.platform !== 'linux') {
    return null;
  }
  try {
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis):
    // utime is the 14th field of the line, stime the 15th.
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/** The groups `threadCpuMs` sorts a Node process's threads into. */
export type ThreadGroup = 'main thread' | "V8's helpers" | "libuv's pool" | 'other threads';

/**
 * Which group a thread of a Node process belongs to, by its id and the name the runtime gave it (`comm`): V8's
 * helper threads (`V8Worker`: concurrent marking, sweeping, parallel scavenges, optimizing compiles) and libuv's
 * pool (`libuv-worker`: file calls such as the journal's `fdatasync`) name themselves so on Node 24, which the
 * benchmarks run the app and the floors on (the desktop app's Electron may name them otherwise). On Node 20 every
 * thread keeps the process's name, so all but the main thread read as other threads there.
 */
export function threadGroup(pid: number, tid: number, name: string): ThreadGroup {
  if (tid === pid) {
    return 'main thread';
  }
  if (name === 'V8Worker') {
    return "V8's helpers";
  }
  return name === 'libuv-worker' ? "libuv's pool" : 'other threads';
}

/**
 * CPU milliseconds one thread has used so far: the scheduler's count in nanoseconds (`schedstat`, its first field),
 * where the kernel keeps it, else `stat`'s 10 ms ticks. A round of 2,000 deliveries makes one tick 5 µs a delivery,
 * as coarse as the smallest group's whole share, so the finer count is read first.
 */
function threadMs(pid: number, tid: string): number | null {
  try {
    const field = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0] ?? '';
    if (/^\d+$/.test(field)) {
      return Number(field) / 1e6;
    }
  } catch {
    // No schedstat on this kernel, or the thread ended: the tick count below says which.
  }
  return processCpuMs(pid, Number(tid));
}

/**
 * CPU milliseconds each group of `pid`'s threads has used so far, from /proc on Linux; null elsewhere. A thread that
 * ended since an earlier reading takes its time with it, so compare readings of a process whose threads last (a
 * Node process's pools do).
 */
export function threadCpuMs(pid: number | undefined): Map<ThreadGroup, number> | null {
  if (pid === undefined || process.platform !== 'linux') {
    return null;
  }
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const groups = new Map<ThreadGroup, number>();
  for (const tid of tids) {
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // Ended between the listing and the read.
    }
    const ms = threadMs(pid, tid);
    if (ms !== null) {
      const group = threadGroup(pid, Number(tid), name);
      groups.set(group, (groups.get(group) ?? 0) + ms);
    }
  }
  return groups;
}

/** Of `pids`, Chromium's renderer processes (where a page's main thread runs). */
export function rendererPids(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/** This process's own CPU milliseconds (user plus kernel). */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Stands for this process (the load generator) in a `CpuLedger` measurement. */
export const THIS_PROCESS = 'this process';

/**
 * CPU per delivery of each process taking part, per round, summarised as medians: where the time goes, so a
 * ratio short of its target can be read as "the app does more" or "the cores are shared", on any machine.
 */
export class CpuLedger {
  /** label → process name → µs per delivery, one entry per round. */
  private readonly rounds = new Map<string, Map<string, number[]>>();
  /** label → the process whose threads are split, and one split per round (the same rounds as its entries above). */
  private readonly splits = new Map<string, { name: string; rounds: (ThreadSplit | null)[] }>();

  /**
   * Runs `work`, which handles `deliveries`, and records the CPU each process used for it under `label`; with
   * `threadsOf`, the named process's CPU by group of threads too (`threadCpuMs`), where on Linux.
   */
  async measure<T, P extends Record<string, number | undefined | typeof THIS_PROCESS>>(
    label: string,
    processes: P,
    deliveries: number,
    work: () => Promise<T>,
    threadsOf?: keyof P & string,
  ): Promise<T> {
    const read = (pid: number | undefined | typeof THIS_PROCESS): number | null =>
      pid === THIS_PROCESS ? ownCpuMs() : processCpuMs(pid);
    const split = threadsOf === undefined ? undefined : processes[threadsOf];
    const readThreads = (): Map<ThreadGroup, number> | null => (typeof split === 'number' ? threadCpuMs(split) : null);
    const before = Object.entries(processes).map(([name, pid]) => [name, pid, read(pid)] as const);
    const threadsBefore = readThreads();
    const startedAt = performance.now();
    const result = await work();
    const wallMs = performance.now() - startedAt;
    const threadsAfter = readThreads();
    const byProcess = this.rounds.get(label) ?? new Map<string, number[]>();
    this.rounds.set(label, byProcess);
    for (const [name, pid, start] of before) {
      const end = read(pid);
      if (start !== null && end !== null) {
        byProcess.set(name, [...(byProcess.get(name) ?? []), ((end - start) * 1000) / deliveries]);
        if (name === threadsOf) {
          const entry = this.splits.get(label) ?? { name, rounds: [] };
          this.splits.set(label, entry);
          entry.rounds.push(
            threadsBefore && threadsAfter ? splitOf(threadsBefore, threadsAfter, deliveries, wallMs) : null,
          );
        }
      }
    }
    return result;
  }

  /**
   * One line per label, e.g. `the app: app 255 µs (main thread 188, V8's helpers 45, libuv's pool 18; main thread
   * busy 81% of the round), dock 5 µs, load generator 51 µs (CPU per delivery, median of 7 rounds)`. Linux counts a
   * process's time in 10 ms ticks, so a short round reads a few µs either way; the median evens that out. The split
   * in brackets is the median round's (the round whose figure for that process is the median, or the lower of the two
   * middle ones), so its parts add up to that figure within the ticks.
   */
  lines(): string[] {
    return [...this.rounds].map(([label, byProcess]) => {
      const split = this.splits.get(label);
      const parts = [...byProcess].map(([name, values]) => {
        const whole = `${name} ${Math.round(median(values))} µs`;
        const round = split?.name === name ? split.rounds[medianIndex(values)] : null;
        return round ? `${whole} (${describeSplit(round)})` : whole;
      });
      const rounds = Math.max(0, ...[...byProcess.values()].map((v) => v.length));
      return `${label}: ${parts.join(', ')} (CPU per delivery, median of ${rounds} rounds)`;
    });
  }
}

/** One round of a process's CPU by group of threads, in µs per delivery, and its main thread's share of the round. */
interface ThreadSplit {
  groups: Map<ThreadGroup, number>;
  /** The main thread's CPU time over the round's wall time: 1 is a whole core, so the round could not go faster on it. */
  mainBusy: number;
}

function splitOf(
  before: Map<ThreadGroup, number>,
  after: Map<ThreadGroup, number>,
  deliveries: number,
  wallMs: number,
): ThreadSplit {
  // A thread that ended during the round took its time with it; a group never reads below nothing.
  const usedMs = (group: ThreadGroup): number => Math.max(0, (after.get(group) ?? 0) - (before.get(group) ?? 0));
  const groups = new Map([...after.keys()].map((group) => [group, (usedMs(group) * 1000) / deliveries] as const));
  return { groups, mainBusy: wallMs > 0 ? usedMs('main thread') / wallMs : Number.NaN };
}

/** `main thread 188, V8's helpers 45, libuv's pool 18; main thread busy 81% of the round` (other threads if any). */
function describeSplit(split: ThreadSplit): string {
  const groups = [...split.groups]
    .filter(([group, used]) => group !== 'other threads' || used >= 0.5)
    .map(([group, used]) => `${group} ${Math.round(used)}`);
  const busy = Number.isFinite(split.mainBusy)
    ? `; main thread busy ${Math.round(split.mainBusy * 100)}% of the round`
    : '';
  return `${groups.join(', ')}${busy}`;
}

/** The index of the median of `values` (the lower of the two middle ones for an even count). */
function medianIndex(values: readonly number[]): number {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  return order[Math.floor((order.length - 1) / 2)]?.index ?? 0;
}

/** Every process descended from `root` (children, their children, …), from /proc on Linux; empty elsewhere. */
export function descendants(root: number): number[] {
  if (process.platform !== 'linux') {
    return [];
  }
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The parent pid is the 2nd field after the command name (which may hold spaces).
      parentOf.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  const found: number[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

/**
 * CPU milliseconds used so far by a set of processes, summed; processes that exit between two readings drop out,
 * so read the same set (`pids`) at both ends of a measurement.
 */
export function processesCpuMs(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0);
}

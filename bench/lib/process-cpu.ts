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

  /** Runs `work`, which handles `deliveries`, and records the CPU each process used for it under `label`. */
  async measure<T>(
    label: string,
    processes: Record<string, number | undefined | typeof THIS_PROCESS>,
    deliveries: number,
    work: () => Promise<T>,
  ): Promise<T> {
    const read = (pid: number | undefined | typeof THIS_PROCESS): number | null =>
      pid === THIS_PROCESS ? ownCpuMs() : processCpuMs(pid);
    const before = Object.entries(processes).map(([name, pid]) => [name, pid, read(pid)] as const);
    const result = await work();
    const byProcess = this.rounds.get(label) ?? new Map<string, number[]>();
    this.rounds.set(label, byProcess);
    for (const [name, pid, start] of before) {
      const end = read(pid);
      if (start !== null && end !== null) {
        byProcess.set(name, [...(byProcess.get(name) ?? []), ((end - start) * 1000) / deliveries]);
      }
    }
    return result;
  }

  /**
   * One line per label, e.g. `the app: app 118 µs, dock 6 µs, load generator 29 µs (CPU per delivery, median of 7
   * rounds)`. Linux counts in 10 ms ticks, so a short round reads a few µs either way; the median evens that out.
   */
  lines(): string[] {
    return [...this.rounds].map(([label, byProcess]) => {
      const parts = [...byProcess].map(([name, values]) => `${name} ${Math.round(median(values))} µs`);
      const rounds = Math.max(0, ...[...byProcess.values()].map((v) => v.length));
      return `${label}: ${parts.join(', ')} (CPU per delivery, median of ${rounds} rounds)`;
    });
  }
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

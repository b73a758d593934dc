/**
 * What the benchmarks started, so nothing outlives them: every child process (the app, Chromium, the floors,
 * docks and probes) and every temp dir goes on this list when it is made and off it when it is stopped or
 * removed. `bench/run.ts` stops whatever is still on it after each module, whether the module finished, threw or
 * crashed, and once more as the process exits. A benchmark that stopped half-way once left five app processes
 * running for over an hour and ten temp dirs behind (bench/README.md, "When a module cannot run").
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descendants } from './process-cpu';

const processes = new Set<ChildProcess>();
const dirs = new Set<string>();

/** How long a process has to stop after SIGTERM before SIGKILL. */
const GRACE_MS = 5_000;

const running = (child: ChildProcess): boolean =>
  child.pid !== undefined && child.exitCode === null && child.signalCode === null;

/**
 * Puts a just-spawned process on the list until it exits. A process that could not start at all (its program
 * missing) reports an error event instead of crashing this process; whoever waits on it sees it exit.
 */
export function startedProcess<T extends ChildProcess>(child: T): T {
  processes.add(child);
  child.once('exit', () => processes.delete(child));
  child.once('error', () => {
    if (child.pid === undefined) {
      processes.delete(child);
    }
  });
  return child;
}

/** A fresh temp dir under the system's, on the list until `removeTempDir`. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

/** Process ids still running from the list, each with its descendants (Chromium's renderers, say). */
function runningTrees(): number[] {
  const pids = [...processes].filter(running).map((child) => child.pid!);
  return [...pids, ...pids.flatMap((pid) => descendants(pid))];
}

function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Stops everything still on the list: SIGTERM, then SIGKILL for what is left after a grace period (its
 * descendants included), and removes the temp dirs. Resolves with what it had to stop, for a note.
 */
export async function stopEverything(): Promise<{ processes: number; dirs: number }> {
  const trees = runningTrees();
  const roots = [...processes].filter(running);
  signal(
    roots.map((child) => child.pid!),
    'SIGTERM',
  );
  const deadline = Date.now() + GRACE_MS;
  while (roots.some(running) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  signal(trees.filter(alive), 'SIGKILL');
  processes.clear();
  const dirCount = dirs.size;
  for (const dir of [...dirs]) {
    removeTempDir(dir);
  }
  return { processes: roots.length, dirs: dirCount };
}

/** The same, at once and synchronously, for the moment this process exits (no time left for a grace period). */
export function stopEverythingNow(): void {
  signal(runningTrees(), 'SIGKILL');
  processes.clear();
  for (const dir of [...dirs]) {
    removeTempDir(dir);
  }
}

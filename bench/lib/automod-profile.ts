/**
 * How long auto-moderation held the app's main thread, read from a CPU profile of the app (`--cpu-prof`):
 * samples whose stack runs through `Automod.judge` (electron/automod/automod.ts) are auto-moderation's.
 *
 * A panel request waits for the task main is running when it arrives. Consecutive samples under the same
 * outermost function belong to one task (or to tasks run back to back from one phase of the event loop,
 * which the request waits for too); a garbage collection inside it counts with it, an idle sample or a
 * different outermost function ends it. Auto-moderation's share of the longest wait is the most judging
 * time within one such task. (Samples between idle ones would overstate it: while main is busy for a long
 * stretch it still reads sockets between tasks.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Twice the sampling interval (`--cpu-prof-interval=100`), for the sampler's own jitter. */
export const MAX_SAMPLE_US = 200;
/** A gap this long is the process stopped, not a late sample. */
export const STOP_US = 1000;

export interface JudgingTime {
  /** Gaps between samples longer than `STOP_US` (the process stopped), and their longest, in ms. */
  stops: number;
  longestStopMs: number;
  /** The most time, in ms, spent judging within one task. */
  longestPerTaskMs: number;
  /** All judging time, in ms. */
  totalMs: number;
}

/** Reads the one `.cpuprofile` in `dir`; `source` is the profiled bundle, to tell `Automod.judge` apart. */
export function judgingTime(dir: string, source: string): JudgingTime {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) {
    throw new Error(`no CPU profile in ${dir}`);
  }
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const lines = readFileSync(source, 'utf8').split('\n');
  const isJudge = (node: ProfileNode): boolean =>
    node.callFrame.functionName === 'judge' && /judge\(message, atMs\)/.test(lines[node.callFrame.lineNumber] ?? '');
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const judging = new Map<number, boolean>();
  const inJudge = (id: number): boolean => {
    const known = judging.get(id);
    if (known !== undefined) {
      return known;
    }
    const up = parent.get(id);
    const value = isJudge(byId.get(id)!) || (up !== undefined && inJudge(up));
    judging.set(id, value);
    return value;
  };
  const rootOf = new Map<number, number>();
  const outermost = (id: number): number => {
    let known = rootOf.get(id);
    if (known === undefined) {
      const up = parent.get(id);
      // The profile's own "(root)" has no parent; its children are the outermost functions.
      known = up === undefined || parent.get(up) === undefined ? id : outermost(up);
      rootOf.set(id, known);
    }
    return known;
  };
  let stops = 0;
  let longestStop = 0;
  let longestPerTask = 0;
  let total = 0;
  let task = 0;
  let taskRoot = -1;
  for (let i = 0; i < profile.samples.length; i++) {
    const gap = profile.timeDeltas[i + 1] ?? 0;
    if (gap > STOP_US) {
      stops += 1;
      longestStop = Math.max(longestStop, gap);
    }
    const us = Math.min(gap, MAX_SAMPLE_US);
    const node = byId.get(profile.samples[i]!)!;
    const name = node.callFrame.functionName;
    if (name === '(garbage collector)') {
      continue;
    }
    const root = outermost(node.id);
    if (name === '(idle)' || name === '(program)' || root !== taskRoot) {
      task = 0;
      taskRoot = name === '(idle)' || name === '(program)' ? -1 : root;
    }
    if (inJudge(node.id)) {
      task += us;
      total += us;
      longestPerTask = Math.max(longestPerTask, task);
    }
  }
  return {
    stops,
    longestStopMs: longestStop / 1000,
    longestPerTaskMs: longestPerTask / 1000,
    totalMs: total / 1000,
  };
}

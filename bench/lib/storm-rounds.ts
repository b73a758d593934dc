/**
 * The chat storm in rounds. Each round is a whole storm: a fresh app, a fresh browser. A figure passes only
 * when every round passes: on a busy two-core machine the frame p95 sits on the boundary between 16.7 and
 * 33.3 ms and flips from run to run, so a median of rounds read as a pass what the next run failed
 * ([bench/README.md](../README.md#the-storm-in-rounds)). So the figure printed is the worst round's (the highest
 * against a `<=` target, the lowest against a `>=`), with the median and every round's value beside it;
 * `chat-auto-pauses` and `chat-duplicates` are the rounds' sums. A figure a round could not measure (NaN)
 * leaves the combined figure NaN.
 */
import { median, round } from './stats';
import type { BenchResult } from '../types';

/** Rounds of the storm; 5 unless `GREENROOM_BENCH_STORM_ROUNDS` says otherwise (1 for a quick look). */
export const STORM_ROUNDS = Math.max(1, Number(process.env.GREENROOM_BENCH_STORM_ROUNDS ?? 5));

/** Counts every round must hold at zero: their sum is zero only if each round's is. */
const SUMMED = new Set(['chat-auto-pauses', 'chat-duplicates']);

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** One figure per name, from the rounds' results (each round gives the same names). */
export function combineRounds(rounds: readonly (readonly BenchResult[])[]): BenchResult[] {
  const first = rounds[0];
  if (!first) {
    throw new Error('no storm round ran');
  }
  return first.map((figure) => {
    const values = rounds.map((r) => r.find((f) => f.name === figure.name)?.value ?? Number.NaN);
    if (rounds.length === 1) {
      return { ...figure, value: values[0]! };
    }
    const each = `rounds ${values.map((v) => round(v, 2)).join(', ')}`;
    if (values.some(Number.isNaN)) {
      return { ...figure, value: Number.NaN, detail: `a round could not measure it (${each})` };
    }
    if (SUMMED.has(figure.name)) {
      return { ...figure, value: sum(values), detail: `total of ${rounds.length} rounds (${each})` };
    }
    const worst = figure.target.op === '<=' ? Math.max(...values) : Math.min(...values);
    return {
      ...figure,
      value: worst,
      detail: `worst of ${rounds.length} rounds, median ${round(median(values), 2)} (${each})`,
    };
  });
}

/** Runs `once` `rounds` times, noting each round's figures, and combines them. */
export async function inRounds(
  rounds: number,
  once: () => Promise<BenchResult[]>,
  note: (line: string) => void,
): Promise<BenchResult[]> {
  const results: BenchResult[][] = [];
  for (let r = 1; r <= rounds; r++) {
    const result = await once();
    note(`round ${r} of ${rounds}: ${result.map((f) => `${f.name} ${f.value}`).join(', ')}`);
    results.push(result);
  }
  return combineRounds(results);
}

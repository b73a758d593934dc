/**
 * A module's figures, declared once: its `figures` list is what `bench/run.ts` prints as NaN, each with the
 * reason, when the module cannot run ([bench/README.md](../README.md#when-a-module-cannot-run)), and what it
 * measured is given by name against that same list, so the two cannot drift apart.
 */
import type { BenchFigure, BenchResult } from '../types';

/** The declared figure `name` with its measured value; a name the module did not declare is the module's mistake. */
export function measuredFigure(figures: readonly BenchFigure[], name: string, value: number): BenchResult {
  const figure = figures.find((f) => f.name === name);
  if (figure === undefined) {
    throw new Error(`${name} is not among the figures its module declares`);
  }
  return { ...figure, value };
}

/** Every declared figure with its value from `values` (NaN for one not measured), in the declared order. */
export function measuredFigures(figures: readonly BenchFigure[], values: Record<string, number>): BenchResult[] {
  for (const name of Object.keys(values)) {
    measuredFigure(figures, name, 0);
  }
  return figures.map((figure) => ({ ...figure, value: values[figure.name] ?? Number.NaN }));
}

/**
 * The line each figure prints, the format [design notes](../../docs/design-notes.md#benchmarks-print-one-line-per-figure)
 * fix, and the figures of a module that could not run, each NaN and short with the reason.
 */
import type { BenchFigure, BenchResult } from '../types';

/** A unit may be empty (a plain count) or a phrase (`of 24000`); a figure that could not be measured is NaN. */
export function formatFigure(result: BenchResult): string {
  const value = Number.isInteger(result.value) ? String(result.value) : result.value.toFixed(result.value < 10 ? 2 : 1);
  const met = result.target.op === '>=' ? result.value >= result.target.value : result.value <= result.target.value;
  const unit = result.unit ? ` ${result.unit}` : '';
  const detail = result.detail ? `; ${result.detail}` : '';
  return `bench ${result.name}: ${value}${unit} (target ${result.target.op} ${result.target.value}) ${met ? 'ok' : 'short'}${detail}`;
}

/** One line, whatever the error carried (an app's log tail is for stderr, not the figure's line). */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.trim() || 'it stopped without saying why';
}

/** The module's figures as NaN, each saying why; one line under the module's name when it lists none. */
export function unmeasured(module: string, figures: readonly BenchFigure[] | undefined, reason: string): BenchResult[] {
  const listed: readonly BenchFigure[] =
    figures && figures.length > 0 ? figures : [{ name: module, unit: '', target: { op: '>=', value: 0 } }];
  return listed.map((figure) => ({ ...figure, value: Number.NaN, detail: `could not run: ${reason}` }));
}

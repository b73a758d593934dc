import { describe, expect, it } from 'vitest';
import { formatFigure, unmeasured } from '../../../bench/lib/bench-line';
import { measuredFigure, measuredFigures } from '../../../bench/lib/figures';
import { MODULES } from '../../../bench/modules';

/**
 * Every benchmark module declares the figures it gives, so one that cannot run still prints each of them as
 * NaN with the reason ([bench/README.md](../../../bench/README.md#when-a-module-cannot-run)), not one line
 * under its own name that a reader of a figure's history would never find.
 */
describe('the benchmark modules', () => {
  it.each(Object.keys(MODULES))(
    '%s declares its figures, each once, with a target',
    async (name) => {
      const module = await MODULES[name]!();
      expect(module.figures, `${name} declares no figures`).toBeDefined();
      const figures = module.figures!;
      expect(figures.length).toBeGreaterThan(0);
      expect(new Set(figures.map((f) => f.name)).size).toBe(figures.length);
      for (const figure of figures) {
        expect(figure.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(['<=', '>=']).toContain(figure.target.op);
        expect(Number.isFinite(figure.target.value)).toBe(true);
      }
      const lines = unmeasured(name, figures, 'Chromium is not installed at /nowhere').map(formatFigure);
      expect(lines).toHaveLength(figures.length);
      for (const [i, line] of lines.entries()) {
        expect(line).toMatch(new RegExp(`^bench ${figures[i]!.name}: NaN .*short; could not run: Chromium is not`));
      }
      // Loading a module that brings Playwright with it can take seconds on a busy machine; nothing here is timed.
    },
    60_000,
  );
});

describe('a measured figure', () => {
  const figures = [
    { name: 'a-ms', unit: 'ms', target: { op: '<=' as const, value: 5 } },
    { name: 'b-ratio', unit: 'x', target: { op: '>=' as const, value: 0.8 } },
  ];

  it('takes its unit and target from the declaration, and is NaN where nothing was measured', () => {
    expect(measuredFigures(figures, { 'b-ratio': 0.9 }).map(formatFigure)).toEqual([
      'bench a-ms: NaN ms (target <= 5) short',
      'bench b-ratio: 0.90 x (target >= 0.8) ok',
    ]);
  });

  it('refuses a figure the module did not declare', () => {
    expect(() => measuredFigures(figures, { 'a-ms': 1, 'c-count': 2 })).toThrow(/c-count is not among/);
    expect(() => measuredFigure(figures, 'c-count', 2)).toThrow(/c-count is not among/);
  });
});

/** No file of electron/ reaches itself through its imports, type-only ones included (ARCHITECTURE.md#layers-inside-main). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph } from '../../helpers/import-graph';

const root = join(import.meta.dirname, '..', '..', '..');

describe('import circles', () => {
  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('electron/ has none', () => {
    const graph = importGraph(root, 'electron');
    expect(graph.size).toBeGreaterThan(100);
    expect(importCircles(graph).map((circle) => circle.join(' → '))).toEqual([]);
  });
});

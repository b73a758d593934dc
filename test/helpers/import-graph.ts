/**
 * The relative-import graph of a source folder, file by file, and the circles in it: what the layers rule keeps
 * out between folders, checked here across files too (ARCHITECTURE.md#layers-inside-main).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every `.ts` file under `dir`, recursively, declaration files left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      return sourceFiles(path);
    }
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** file → the files it imports (relative imports that resolve to a `.ts` file in the folder). */
export function importGraph(root: string, folder: string): Map<string, string[]> {
  const files = sourceFiles(join(root, folder));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const base = resolve(dirname(file), match[1]!).replace(/\.(js|ts)$/, '');
      const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
      if (target) {
        targets.push(target);
      }
    }
    graph.set(file, targets);
  }
  return new Map([...graph].map(([file, targets]) => [relative(root, file), targets.map((t) => relative(root, t))]));
}

/** Every circle found by a depth-first walk, each as the files in order; empty when the graph has none. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        circles.push([...stack.slice(stack.indexOf(next)), next]);
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) {
    if (!state.has(file)) {
      visit(file);
    }
  }
  return circles;
}

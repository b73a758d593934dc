import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { collectGarbage, inspectFlag } from '../../../bench/lib/node-inspector';
import { freePort } from '../../helpers/free-port';

/**
 * An idle process holding an object only a FinalizationRegistry watches: nothing allocates, so nothing
 * collects it, until a full collection is asked for; then it prints `collected`.
 */
const IDLE_WATCHER = `
const registry = new FinalizationRegistry(() => console.log('collected'));
(() => { registry.register({ big: new Array(1000).fill(1) }, 'watched'); })();
console.log('ready');
setInterval(() => {}, 60_000);
`;

const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
  }
});

async function startWatcher(port: number): Promise<{ lines: string[]; next: (line: string) => Promise<void> }> {
  const child = spawn(process.execPath, [inspectFlag(port), '-e', IDLE_WATCHER], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines: string[] = [];
  const waiting: { line: string; resolve: () => void }[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of waiting.filter((w) => w.line === line)) {
      w.resolve();
    }
  });
  const next = (line: string): Promise<void> =>
    lines.includes(line) ? Promise.resolve() : new Promise((resolve) => waiting.push({ line, resolve }));
  // The inspector announces itself on stderr once it listens.
  const stderr = createInterface({ input: child.stderr });
  while (!String((await once(stderr, 'line'))[0]).startsWith('Debugger listening')) {
    // other lines are not ours to read
  }
  await next('ready');
  return { lines, next };
}

describe('collectGarbage', () => {
  it('makes the other process run a full collection', async () => {
    const port = await freePort();
    const watcher = await startWatcher(port);
    expect(watcher.lines).not.toContain('collected');
    await collectGarbage(port);
    await watcher.next('collected');
    expect(watcher.lines).toContain('collected');
  });

  it('fails when no inspector listens on the port', async () => {
    await expect(collectGarbage(await freePort())).rejects.toThrow();
  });
});

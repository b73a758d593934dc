import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDataDir, startAppProcess } from '../../../bench/lib/app-process';
import { reasonOf } from '../../../bench/lib/bench-line';
import { stormFigures } from '../../../bench/lib/storm-figures';

/**
 * A whole-app benchmark that cannot run says why and leaves nothing behind
 * ([bench/README.md](../../../bench/README.md#when-a-module-cannot-run)). The real `npm run bench -- chat-storm`
 * runs in its own process with Chromium's path pointed at nothing: it gets as far as starting the built app
 * and signing it in, then cannot open the panel. Every process it starts inherits a mark in its environment,
 * so this test sees them come and go in /proc without trusting the benchmark's own account; its temp dirs go
 * to a private TMPDIR, so whatever is left there is the benchmark's.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const NOWHERE = '/nonexistent/greenroom-test/chromium';
const onLinux = process.platform === 'linux';

const scratch = mkdtempSync(join(tmpdir(), 'greenroom-bench-cannot-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Process ids whose environment holds `mark` (those readable: ours). */
function marked(mark: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(mark)) {
        found.push(Number(entry));
      }
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** What is in `dir` apart from tsx's own compile cache (`tsx-<uid>`), which is the runner's, not the module's. */
const leftIn = (dir: string): string[] => readdirSync(dir).filter((name) => !/^tsx-\d+$/.test(name));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every process seen with the mark while the benchmark ran, with what it ran. */
  seen: Map<number, string>;
  /** Every temp dir name seen while it ran. */
  dirsSeen: Set<string>;
}

async function runBench(tmp: string, mark: string): Promise<Run> {
  const [key, value] = mark.split('=') as [string, string];
  const child = spawn(process.execPath, [TSX, join(ROOT, 'bench', 'run.ts'), 'chat-storm'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TMPDIR: tmp,
      GREENROOM_BENCH_CHROMIUM: NOWHERE,
      GREENROOM_BENCH_STORM_ROUNDS: '1',
      GREENROOM_BENCH_STORM_S: '2',
      // The app on this Node without the stream history: what is under test is the cleanup, not the history.
      GREENROOM_BENCH_STORM_HISTORY: 'off',
      [key]: value,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const seen = new Map<number, string>();
  const dirsSeen = new Set<string>();
  const watch = setInterval(() => {
    for (const pid of marked(mark)) {
      // Read again at every look: a child caught between its fork and its exec still shows its parent's command.
      if (pid !== child.pid) {
        try {
          const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
          if (command.trim() !== '' || !seen.has(pid)) {
            seen.set(pid, command);
          }
        } catch {
          // Gone already.
        }
      }
    }
    for (const name of leftIn(tmp)) {
      dirsSeen.add(name);
    }
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearInterval(watch);
  return { code, stdout, stderr, seen, dirsSeen };
}

describe.skipIf(!onLinux)('a whole-app benchmark that cannot run', () => {
  it('prints each figure as NaN and short with the reason, stops what it started and removes its temp dirs', async () => {
    const tmp = mkdtempSync(join(scratch, 'tmp-'));
    const mark = `GREENROOM_TEST_BENCH_MARK=${randomUUID()}`;
    const run = await runBench(tmp, mark);

    // It got as far as the app: the built app ran under the mark, and its data dir was made.
    const app = [...run.seen.values()].filter((command) => command.includes(join('out', 'main', 'panel.js')));
    expect(app, `processes seen: ${[...run.seen.values()].join('\n')}\n${run.stderr}`).not.toHaveLength(0);
    expect([...run.dirsSeen].some((name) => name.startsWith('greenroom-bench-'))).toBe(true);
    // Its Kick ran in a process of its own, not inside the app
    // ([bench/README.md](../../../bench/README.md#the-storms-kick-in-its-own-process)), and is stopped too (below).
    const kick = [...run.seen.values()].filter((command) => command.includes(join('sandbox', 'cli.ts')));
    expect(kick, `processes seen: ${[...run.seen.values()].join('\n')}`).not.toHaveLength(0);

    // Every figure of the module, NaN and short, each with the reason.
    const lines = run.stdout.trim().split('\n');
    const reason = `could not run: Chromium is not installed at ${NOWHERE}`;
    expect(
      lines.map((line) => line.split(':')[0]),
      run.stdout,
    ).toEqual(stormFigures(800).map((f) => `bench ${f.name}`));
    for (const line of lines) {
      expect(line).toMatch(/^bench [a-z0-9-]+: NaN\b.* \(target (<=|>=) [\d.]+\) short; /);
      expect(line).toContain(reason);
    }
    expect(run.code).not.toBe(0);

    // Nothing it started is still running, and nothing it made is left.
    expect(marked(mark)).toEqual([]);
    expect(leftIn(tmp)).toEqual([]);
  }, 180_000);

  it('names a taken port as the reason, and stops the app and removes its data dir', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const dataDir = prepareDataDir();
    const mark = `GREENROOM_TEST_BENCH_MARK=${randomUUID()}`;
    const [key, value] = mark.split('=') as [string, string];
    try {
      const started = startAppProcess({ GREENROOM_PANEL_PORT: String(port), [key]: value }, dataDir);
      const error = await started.then(
        () => new Error('the app started on a taken port'),
        (e: unknown) => e,
      );
      expect(reasonOf(error)).toMatch(new RegExp(`^the app exited: .*port ${port} is in use`));
      expect(marked(mark)).toEqual([]);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

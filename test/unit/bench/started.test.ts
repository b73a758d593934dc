import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir, startedProcess, stopEverything } from '../../../bench/lib/started';

/** Running, not a zombie waiting for a parent to reap it (which a container's init may never do). */
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

/** A child that ignores SIGTERM and has a child of its own; prints the grandchild's pid once both run. */
const STUBBORN = `
process.on('SIGTERM', () => {});
const { spawn } = require('node:child_process');
const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
console.log(grandchild.pid);
setInterval(() => {}, 1000);
`;

describe.skipIf(process.platform !== 'linux')('what the benchmarks started', () => {
  it('stops a process that ignores SIGTERM, with its descendants, and removes the temp dirs', async () => {
    const child = startedProcess(spawn(process.execPath, ['-e', STUBBORN], { stdio: ['ignore', 'pipe', 'ignore'] }));
    const [line] = await createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value as string]);
    const grandchild = Number(line);
    const dir = makeTempDir('greenroom-started-test-');
    writeFileSync(join(dir, 'data'), 'x');

    const stopped = await stopEverything();

    expect(stopped).toEqual({ processes: 1, dirs: 1 });
    // SIGKILLed: reaped by us (the child) and by init (the grandchild) soon after.
    await new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
    expect(child.signalCode).toBe('SIGKILL');
    for (let i = 0; i < 50 && alive(grandchild); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(alive(grandchild)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  }, 15_000);

  it('leaves off the list what already stopped or was removed by its owner', async () => {
    const child = startedProcess(spawn(process.execPath, ['-e', ''], { stdio: 'ignore' }));
    await new Promise((resolve) => child.once('exit', resolve));
    removeTempDir(makeTempDir('greenroom-started-test-'));
    expect(await stopEverything()).toEqual({ processes: 0, dirs: 0 });
  });

  it('takes a program that cannot start without crashing this process', async () => {
    const child = startedProcess(spawn('/nonexistent/greenroom-test/program', [], { stdio: 'ignore' }));
    await new Promise((resolve) => child.once('error', resolve));
    expect(await stopEverything()).toEqual({ processes: 0, dirs: 0 });
  });
});

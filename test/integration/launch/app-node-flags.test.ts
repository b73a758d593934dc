/**
 * `npm run panel` starts the panel server on a Node carrying the app's heap settings
 * (scripts/app-node-flags.mjs): V8 reads them only as a process starts, so scripts/start.mjs runs the server in
 * a child started with them, passes a stop on to it and leaves nothing running
 * (docs/decisions.md#where-the-apps-memory-goes-in-a-chat-storm). Runs in a temp copy of the app, as
 * electron-install.test.ts does; reads the processes from /proc, so Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_NODE_FLAGS } from '../../../scripts/app-node-flags.mjs';
import { makeAppCopy, PANEL_LINE, startApp, useLaunchLifecycle } from './electron-install-fixtures';

/** The argv of every process whose command line names `entry`. */
function processesRunning(entry: string): { pid: number; argv: string[] }[] {
  const found: { pid: number; argv: string[] }[] = [];
  for (const name of readdirSync('/proc').filter((entryName) => /^\d+$/.test(entryName))) {
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv.includes(entry)) {
        found.push({ pid: Number(name), argv });
      }
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

describe.skipIf(process.platform !== 'linux')('npm run panel', () => {
  useLaunchLifecycle();

  it('runs the panel server on a Node started with the app’s heap settings, and stops it', async () => {
    const root = makeAppCopy();
    const entry = join(root, 'out', 'main', 'panel.js');
    const run = startApp(root, {}, { args: ['--panel'] });
    await run.waitFor(PANEL_LINE);
    const servers = processesRunning(entry);
    expect(servers).toHaveLength(1);
    const argv = servers[0]!.argv;
    // Node's own flags come before the entry; after it they would be the app's arguments.
    expect(argv.slice(1, argv.indexOf(entry))).toEqual(expect.arrayContaining([...APP_NODE_FLAGS]));
    expect(await run.stop()).toBe(0);
    expect(processesRunning(entry)).toEqual([]);
  });

  it('stops when npm stops it: its shell gone, the panel server goes too', async () => {
    const root = makeAppCopy();
    const entry = join(root, 'out', 'main', 'panel.js');
    const launcher = join(root, 'scripts', 'start.mjs');
    const run = startApp(root, {}, { args: ['--panel'], viaShell: true });
    await run.waitFor(PANEL_LINE);
    expect(processesRunning(entry)).toHaveLength(1);
    await run.stop();
    const left = (): { pid: number }[] => [...processesRunning(entry), ...processesRunning(launcher)];
    try {
      // Polled, not slept: the launcher notices its parent is gone within a second.
      await expect.poll(left, { timeout: 10_000, interval: 200 }).toEqual([]);
    } finally {
      // What a failure leaves is no child of this test's any more: stopped here, not left running.
      for (const { pid } of left()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone between the listing and the kill.
        }
      }
    }
  });
});

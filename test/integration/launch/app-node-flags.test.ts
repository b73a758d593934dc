/**
 * `npm run panel` starts the panel server on a Node carrying the app's heap settings
 * (scripts/app-node-flags.mjs): V8 reads them only as a process starts, so scripts/start.mjs runs the server in
 * a child started with them, passes a stop on to it and leaves nothing running
 * (docs/decisions.md#where-the-apps-memory-goes-in-a-chat-storm). On a Node without `node:sqlite` that child is
 * the project's Node 24, so the stream history runs (docs/history.md#where-it-runs). Runs in a temp copy of the
 * app, as electron-install.test.ts does; reads the processes from /proc, so Linux only.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_NODE_ENV, APP_NODE_FLAGS } from '../../../scripts/app-node-flags.mjs';
import { makeAppCopy, PANEL_LINE, repo, startApp, useLaunchLifecycle } from './electron-install-fixtures';

/** Whether the Node running this test has `node:sqlite`, as the launcher asks it. */
function hasSqlite(): boolean {
  try {
    return (
      typeof (process.getBuiltinModule('node:sqlite') as { DatabaseSync?: unknown } | undefined)?.DatabaseSync ===
      'function'
    );
  } catch {
    return false;
  }
}
const NO_HISTORY_LINE =
  /^Greenroom: past streams are not kept in this run: they need Node 22\.13 or later, this is Node [\d.]+/m;
const DOWNLOADING = 'Greenroom: downloading Node 24 for the stream history (once, from the npm registry)…';
/**
 * An ensure-node24.sh whose download fails as an offline npm does, after `DELAY_S` seconds; every download it is
 * asked for is noted in `downloads.txt`.
 */
const failingFetch = (delayS: number): string => `#!/usr/bin/env bash
if [ "\${1:-}" = "--no-install" ]; then echo "Node 24.21.0 is not in .tools/ yet" >&2; exit 1; fi
echo asked >> "$(dirname "$0")/../downloads.txt"
sleep ${delayS}
echo "npm error code ECONNREFUSED" >&2
exit 1
`;

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

/** The environment process `pid` was started with. */
function environOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

describe.skipIf(process.platform !== 'linux')('npm run panel', () => {
  useLaunchLifecycle();

  it('runs the panel server on a Node started with the app’s memory settings, and stops it', async () => {
    const root = makeAppCopy();
    const entry = join(root, 'out', 'main', 'panel.js');
    const run = startApp(root, {}, { args: ['--panel'] });
    await run.waitFor(PANEL_LINE);
    const servers = processesRunning(entry);
    expect(servers).toHaveLength(1);
    const argv = servers[0]!.argv;
    // Node's own flags come before the entry; after it they would be the app's arguments.
    expect(argv.slice(1, argv.indexOf(entry))).toEqual(expect.arrayContaining([...APP_NODE_FLAGS]));
    // And with the app's environment: glibc reads its arena limit only as the process starts.
    expect(environOf(servers[0]!.pid)).toMatchObject({ ...APP_NODE_ENV });
    expect(await run.stop()).toBe(0);
    expect(processesRunning(entry)).toEqual([]);
  });

  it('stops the panel server when the launcher is killed outright, and says when the server was', async () => {
    const root = makeAppCopy();
    const entry = join(root, 'out', 'main', 'panel.js');
    const run = startApp(root, {}, { args: ['--panel'] });
    await run.waitFor(PANEL_LINE);
    const [server] = processesRunning(entry);
    try {
      expect(environOf(server!.pid)).toMatchObject({ GREENROOM_LAUNCHER_PID: expect.stringMatching(/^\d+$/) });
      await run.kill();
      // Polled: the server reads its parent twice a second, then stops as on Ctrl-C.
      await expect.poll(() => processesRunning(entry), { timeout: 10_000, interval: 200 }).toEqual([]);
      await run.exited;
      expect(run.errors()).toContain('panel: the npm start (or npm run panel) that started it is gone, stopping');
    } finally {
      for (const { pid } of processesRunning(entry)) {
        process.kill(pid, 'SIGKILL');
      }
    }

    // A server killed by something the launcher did not pass on: the launcher says so, in one line.
    const other = makeAppCopy();
    const second = startApp(other, {}, { args: ['--panel'] });
    await second.waitFor(PANEL_LINE);
    const [victim] = processesRunning(join(other, 'out', 'main', 'panel.js'));
    process.kill(victim!.pid, 'SIGKILL');
    expect(await second.exited).toBe(1);
    expect(second.errors()).toContain(
      'Greenroom panel stopped unexpectedly (SIGKILL). Run npm run panel to start it again.',
    );
  });

  it('stops cleanly when its terminal is closed (SIGHUP to the group)', async () => {
    const root = makeAppCopy();
    const entry = join(root, 'out', 'main', 'panel.js');
    const run = startApp(root, {}, { args: ['--panel'] });
    await run.waitFor(PANEL_LINE);
    expect(await run.hangUp()).toBe(0);
    expect(run.errors()).toContain('panel: SIGHUP, stopping');
    expect(run.errors()).not.toContain('stopped unexpectedly');
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

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('npm run panel and the stream history', () => {
  useLaunchLifecycle();
  let node24: string;
  beforeAll(() => {
    // Fetched here, once, so a first install's download is not timed as the panel's start.
    node24 = execFileSync('bash', [join(repo, 'scripts', 'ensure-node24.sh')], { encoding: 'utf8' }).trim();
  }, 300_000);

  /** A copy that can fetch Node 24 as the repository does: its script, and the repository's `.tools/` already there. */
  function copyWithNode24(): string {
    const root = makeAppCopy();
    copyFileSync(join(repo, 'scripts', 'ensure-node24.sh'), join(root, 'scripts', 'ensure-node24.sh'));
    symlinkSync(join(repo, '.tools'), join(root, '.tools'));
    return root;
  }

  it('runs the panel server on a Node that keeps past streams', async () => {
    const root = copyWithNode24();
    const entry = join(root, 'out', 'main', 'panel.js');
    const run = startApp(root, {}, { args: ['--panel'] });
    await run.waitFor(PANEL_LINE);
    const [server] = processesRunning(entry);
    // On Node 20 the launcher's own Node has no `node:sqlite`: the server runs on the copy's Node 24.
    expect(server!.argv[0]).toBe(hasSqlite() ? process.execPath : join(root, node24.slice(repo.length + 1)));
    expect(run.output()).not.toMatch(NO_HISTORY_LINE);
    expect(run.errors()).not.toContain('the stream history does not run here');
    expect(await run.stop()).toBe(0);
  });

  it.skipIf(hasSqlite())('says in one line that past streams are not kept when Node 24 cannot be had', async () => {
    const root = makeAppCopy(); // no scripts/ensure-node24.sh
    const run = startApp(root, {}, { args: ['--panel'] });
    await run.waitFor(PANEL_LINE);
    expect(
      run
        .output()
        .split('\n')
        .filter((line) => NO_HISTORY_LINE.test(line)),
    ).toEqual([expect.stringContaining('scripts/ensure-node24.sh is missing')]);
    const [server] = processesRunning(join(root, 'out', 'main', 'panel.js'));
    expect(server!.argv[0]).toBe(process.execPath);
    expect(await run.stop()).toBe(0);
  });

  it.skipIf(hasSqlite())(
    'tries the download once: a failure is remembered, logged, and not waited on again',
    async () => {
      const root = makeAppCopy();
      writeFileSync(join(root, 'scripts', 'ensure-node24.sh'), failingFetch(0));
      const first = startApp(root, {}, { args: ['--panel'] });
      await first.waitFor(PANEL_LINE);
      const lines = first.output().split('\n');
      expect(lines).toContain(DOWNLOADING);
      expect(lines.filter((line) => NO_HISTORY_LINE.test(line))).toEqual([
        expect.stringMatching(
          /Node 24 could not be downloaded \(details in node_modules\/\.cache\/greenroom\/node24-install\.log\); `bash scripts\/ensure-node24\.sh` tries again\.$/,
        ),
      ]);
      // npm's own lines went to the log, not the terminal.
      expect(first.output()).not.toContain('ECONNREFUSED');
      expect(readFileSync(join(root, 'node_modules', '.cache', 'greenroom', 'node24-install.log'), 'utf8')).toContain(
        'ECONNREFUSED',
      );
      expect(await first.stop()).toBe(0);

      const second = startApp(root, {}, { args: ['--panel'] });
      await second.waitFor(PANEL_LINE);
      expect(second.output()).not.toContain(DOWNLOADING);
      expect(second.output()).toMatch(
        /downloading Node 24 failed before \(details in .*\), and `bash scripts\/ensure-node24\.sh` tries again\.$/m,
      );
      expect(readFileSync(join(root, 'downloads.txt'), 'utf8')).toBe('asked\n');
      expect(await second.stop()).toBe(0);
    },
  );

  it.skipIf(hasSqlite())('starts nothing when npm is stopped while Node 24 downloads', async () => {
    const root = makeAppCopy();
    writeFileSync(join(root, 'scripts', 'ensure-node24.sh'), failingFetch(3));
    const entry = join(root, 'out', 'main', 'panel.js');
    const launcher = join(root, 'scripts', 'start.mjs');
    const run = startApp(root, {}, { args: ['--panel'], viaShell: true });
    await run.waitFor(new RegExp(DOWNLOADING.replace(/[()…]/g, '.')));
    await run.stop(); // npm signals its shell, which exits without passing the signal on
    const left = (): { pid: number }[] => [...processesRunning(entry), ...processesRunning(launcher)];
    // The download ends 3 s in; by then the launcher must have seen its parent go and started nothing.
    await expect.poll(() => processesRunning(launcher), { timeout: 10_000, interval: 200 }).toEqual([]);
    expect(left()).toEqual([]);
  });

  it.skipIf(hasSqlite())(
    'downloads with the real script and, offline, says so in one line within seconds',
    async () => {
      const root = makeAppCopy();
      copyFileSync(join(repo, 'scripts', 'ensure-node24.sh'), join(root, 'scripts', 'ensure-node24.sh'));
      // Nothing listens on port 9: npm fails as offline, from an empty cache of its own.
      const env = { npm_config_registry: 'http://127.0.0.1:9/', npm_config_cache: join(root, 'npm-cache') };
      const started = Date.now();
      const run = startApp(root, env, { args: ['--panel'] });
      await run.waitFor(PANEL_LINE);
      expect(Date.now() - started).toBeLessThan(20_000); // npm's own retries took over a minute
      expect(
        run
          .output()
          .split('\n')
          .filter((line) => NO_HISTORY_LINE.test(line)),
      ).toEqual([expect.stringContaining('Node 24 could not be downloaded')]);
      const log = readFileSync(join(root, 'node_modules', '.cache', 'greenroom', 'node24-install.log'), 'utf8');
      expect(log).toContain('ECONNREFUSED'); // npm tried the registry, rather than refusing its own settings
      expect(existsSync(join(root, '.tools', 'node-24.21.0'))).toBe(false);
      expect(await run.stop()).toBe(0);
    },
  );

  it.skipIf(hasSqlite())('Ctrl-C during the download stops everything, and the next start tries again', async () => {
    const root = makeAppCopy();
    writeFileSync(join(root, 'scripts', 'ensure-node24.sh'), failingFetch(3));
    const run = startApp(root, {}, { args: ['--panel'] });
    await run.waitFor(new RegExp(DOWNLOADING.replace(/[()…]/g, '.')));
    await run.interrupt();
    expect(processesRunning(join(root, 'out', 'main', 'panel.js'))).toEqual([]);
    expect(existsSync(join(root, 'node_modules', '.cache', 'greenroom', 'node24-install-failed'))).toBe(false);
  });
});

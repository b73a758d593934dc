/**
 * The built app as a user runs it without Electron (`out/main/panel.js`), in its own process, for the
 * whole-app benchmarks: start it on a temp data dir, read its panel URL from stdout, find its embedded
 * sandbox's admin API, sign it in, stop it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { APP_NODE_FLAGS, appNodeEnv } from '../../scripts/app-node-flags.mjs';
import { openSettings, type SettingsPatch } from '../../electron/app/settings';
import { makeTempDir, removeTempDir, startedProcess } from './started';
import { appNode } from './app-node';

export const ROOT = join(import.meta.dirname, '..', '..');
const PANEL_ENTRY = join(ROOT, 'out', 'main', 'panel.js');
const SOURCE_DIRS = ['electron', 'shared', 'renderer', 'sandbox'];

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      newest = Math.max(newest, newestMtimeMs(path));
    } else {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/**
 * Builds out/ when it is missing or older than a source file, so a benchmark never measures stale code.
 * A failed rebuild over an existing out/ (someone's edit in progress) is reported and the old build used.
 */
export function ensureBuilt(note: (line: string) => void): void {
  const built = existsSync(PANEL_ENTRY) && existsSync(join(ROOT, 'out', 'renderer', 'index.html'));
  const stale = !built || SOURCE_DIRS.some((dir) => newestMtimeMs(join(ROOT, dir)) > statSync(PANEL_ENTRY).mtimeMs);
  if (!stale) {
    return;
  }
  note(built ? 'sources changed since the last build; building out/' : 'building out/');
  // The build's own output goes to stderr: stdout carries only the figures' lines.
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) {
    if (!existsSync(PANEL_ENTRY)) {
      throw new Error('build failed');
    }
    note('the build failed; measuring the previous build in out/');
  }
}

/**
 * Node flags that write a CPU profile of the process to `GREENROOM_BENCH_PROFILE_DIR` when it exits (a file per
 * thread), or none when it is unset: for the app and, in the chat storm, its sandbox.
 */
export const cpuProfileArgs = (dir = process.env.GREENROOM_BENCH_PROFILE_DIR): string[] =>
  dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];

/** The embedded sandbox's admin API. */
export interface AdminApi {
  url: string;
  /** Bearer token, when this build's sandbox asks for one. */
  token: string | null;
}

export interface AppProcess {
  child: ChildProcess;
  dataDir: string;
  /** The panel URL with its token, as printed. */
  panelUrl: string;
  /** Resolves with the first stdout line (seen from now on) that matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Finds the embedded sandbox's admin API: `sandbox.json` in the data dir, else the URL printed on stdout. */
  admin(): Promise<AdminApi>;
  /** SIGTERM, wait for exit; the data dir is removed unless `keepDir`. */
  stop(keepDir?: boolean): Promise<void>;
}

/**
 * A fresh temp data dir, set up as a streamer's on any day after the first: the setup guide already done
 * (so it does not open over the panel), and the sign-in's loopback listener on a free port (sandbox mode
 * registers whatever port it picked with the sandbox app). `settings` adds to or overrides those (a standalone
 * sandbox's registered redirect and webhook port, `storm-sandbox.ts`).
 */
export function prepareDataDir(settings: SettingsPatch = {}): string {
  const dataDir = makeTempDir('greenroom-bench-');
  openSettings(dataDir, { randomBytes }).update({
    redirectUri: 'http://127.0.0.1:0/callback',
    setupGuideDone: true,
    ...settings,
  });
  return dataDir;
}

/**
 * Starts `node out/main/panel.js` in sandbox mode: panel and webhook ports free, tunnel off, no simulated
 * activity, sign-in auto-approved as the sandbox streamer; `extraNodeArgs` go to Node before the entry. The
 * tail of its log (stderr) is kept for error messages. `node`: the Node that runs it, the app's Node 24 by default
 * (`app-node.ts`), as Electron 45 runs main.
 */
export async function startAppProcess(
  extraEnv: Record<string, string> = {},
  dataDir = prepareDataDir(),
  extraNodeArgs: readonly string[] = [],
  node = appNode(),
): Promise<AppProcess> {
  // The app's own memory settings (flags first, and its environment), as its launcher starts it
  // (scripts/app-node-flags.mjs).
  const nodeArgs = [...APP_NODE_FLAGS, ...extraNodeArgs, ...cpuProfileArgs()];
  const child = spawn(node, [...nodeArgs, PANEL_ENTRY], {
    cwd: ROOT,
    env: {
      ...appNodeEnv(),
      GREENROOM_DATA_DIR: dataDir,
      GREENROOM_PANEL_PORT: '0',
      GREENROOM_WEBHOOK_PORT: '0',
      GREENROOM_TUNNEL: 'off',
      GREENROOM_SANDBOX_ACTIVITY: 'off',
      GREENROOM_SANDBOX_AUTO_APPROVE: '100001',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  startedProcess(child);
  const log: string[] = [];
  child.stderr.setEncoding('utf8');
  // GREENROOM_BENCH_APP_LOG: the app's whole log (stderr) is appended to that file.
  const logFile = process.env.GREENROOM_BENCH_APP_LOG;
  child.stderr.on('data', (chunk: string) => {
    if (logFile) {
      appendFileSync(logFile, chunk);
    }
    // Kept in memory (bounded) for error messages; the app logs little at steady state.
    log.push(chunk);
    if (log.length > 200) {
      log.splice(0, 100);
    }
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  let exited = false;
  const failWaiters: ((error: Error) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.splice(0)) {
      const match = waiter.pattern.exec(line);
      if (match) {
        waiter.resolve(match);
      } else {
        waiters.push(waiter);
      }
    }
  });
  // Its last words first (the one line a bench figure carries: "the panel port 8080 is in use", say), then the tail.
  const exitedError = (): Error => {
    const tail = log.join('');
    const last =
      tail
        .split('\n')
        .filter((line) => line.trim() !== '')
        .at(-1)
        ?.trim() ?? 'it printed nothing';
    return new Error(`the app exited: ${last}\nits log ends:\n${tail.slice(-2000)}`);
  };
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      for (const fail of failWaiters.splice(0)) {
        fail(exitedError());
      }
      resolve();
    }),
  );

  const waitForLine = (pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      for (const line of lines) {
        const match = pattern.exec(line);
        if (match) {
          resolve(match);
          return;
        }
      }
      if (exited) {
        reject(exitedError());
        return;
      }
      const timer = setTimeout(
        () => reject(new Error(`no stdout line matching ${pattern} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      waiters.push({
        pattern,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
      failWaiters.push((error) => {
        clearTimeout(timer);
        reject(error);
      });
    });

  let panelUrl: string;
  try {
    panelUrl = (await waitForLine(/^Greenroom panel: (\S+)/))[1]!;
  } catch (error) {
    // An app that never showed its panel is stopped here, its data dir with it, not left for the caller.
    if (!exited) {
      child.kill('SIGKILL');
    }
    await exit;
    removeTempDir(dataDir);
    throw error;
  }

  return {
    child,
    dataDir,
    panelUrl,
    waitForLine,
    async admin() {
      const file = join(dataDir, 'sandbox.json');
      for (let i = 0; i < 100; i++) {
        if (existsSync(file)) {
          const found = JSON.parse(readFileSync(file, 'utf8')) as { adminUrl?: string; adminToken?: string };
          if (found.adminUrl) {
            return { url: found.adminUrl, token: found.adminToken ?? null };
          }
        }
        const printed = lines.find((line) => /admin/i.test(line) && /http:\/\/127\.0\.0\.1:\d+/.test(line));
        if (printed) {
          return { url: /http:\/\/127\.0\.0\.1:\d+/.exec(printed)![0], token: null };
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error("the app's sandbox admin API was not found (no sandbox.json, no admin URL on stdout)");
    },
    async stop(keepDir = false) {
      if (!exited) {
        child.kill('SIGTERM');
      }
      await exit;
      if (!keepDir) {
        removeTempDir(dataDir);
      }
    },
  };
}

/** Follows a sign-in link (the sandbox approves at once) through its redirects to the app's callback. */
export async function visit(url: string): Promise<void> {
  let next: string | undefined = url;
  for (let hops = 0; next && hops < 5; hops++) {
    const res: Awaited<ReturnType<typeof request>> = await request(next);
    await res.body.text();
    const location = res.headers.location;
    next = typeof location === 'string' ? new URL(location, next).href : undefined;
  }
}

/** Calls the admin API; throws with its answer on a non-2xx. */
export async function adminCall<T>(admin: AdminApi, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await request(`${admin.url}${path}`, {
    method,
    headers: {
      ...(admin.token ? { authorization: `Bearer ${admin.token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new Error(`admin ${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`);
  }
  return JSON.parse(text) as T;
}

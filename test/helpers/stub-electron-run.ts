/**
 * Runs the real desktop entry (electron/main.ts, bundled with `npm run build`'s own esbuild options) under
 * Node with stub-electron.mjs in place of `electron`, and reads back the calls it made. The bundle is built
 * once per test file into node_modules/.cache, where its npm imports resolve as out/main/index.js's do.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { mainTargets } from '../../scripts/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REGISTER = join(root, 'test', 'helpers', 'stub-electron-register.mjs');

export interface StubCall {
  call: string;
  args: unknown[];
  pid: number;
}

/** Bundles electron/main.ts as `npm run build` does, into a fresh folder; returns the bundle and its remover. */
export async function buildDesktopEntry(): Promise<{ file: string; remove: () => void }> {
  const cache = join(root, 'node_modules', '.cache', 'greenroom-stub-electron');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'out-'));
  const file = join(dir, 'main', 'index.js');
  await build({ ...mainTargets().main, outfile: file, logLevel: 'error' });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface DesktopCopy {
  child: ChildProcess;
  /** Everything printed so far on stdout and stderr. */
  output(): string;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  /** Resolves true when the main window opened, false when the process ended first. */
  windowOpen: Promise<boolean>;
}

/** Starts one copy of the desktop app with `env` (GREENROOM_* only: the test's own are not inherited). */
export function startDesktopCopy(bundle: string, env: Record<string, string>, recordFile: string): DesktopCopy {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GREENROOM_')));
  const child = spawn(process.execPath, ['--import', REGISTER, bundle], {
    cwd: root,
    env: { ...inherited, ...env, GREENROOM_STUB_ELECTRON_RECORD: recordFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const windowOpen = new Promise<boolean>((resolve) => {
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (text.includes('Greenroom: window open')) {
        resolve(true);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => resolve(text.includes('Greenroom: window open')));
  });
  return { child, output: () => text, exited, windowOpen };
}

/** Stops a copy as the tray's Quit does (the stub turns SIGTERM into `app.quit()`), and waits for it. */
export async function stopDesktopCopy(copy: DesktopCopy): Promise<number | null> {
  if (copy.child.exitCode === null && copy.child.signalCode === null) {
    copy.child.kill('SIGTERM');
  }
  return copy.exited;
}

/** The calls recorded in `recordFile`, optionally only those of one process. */
export function stubCalls(recordFile: string, pid?: number): StubCall[] {
  if (!existsSync(recordFile)) {
    return [];
  }
  return readFileSync(recordFile, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as StubCall)
    .filter((call) => pid === undefined || call.pid === pid);
}

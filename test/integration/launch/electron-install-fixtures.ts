/**
 * What the electron-install.test files share: their fixtures and helpers.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { electronPackageDir } from '../../../scripts/find-electron.mjs';
import { storedZip } from './fixtures/stored-zip';

export const repo = join(import.meta.dirname, '..', '..', '..');
export const { version } = JSON.parse(readFileSync(join(electronPackageDir(repo), 'package.json'), 'utf8')) as {
  version: string;
};
/** Where install.js looks for the binary inside the zip (its getPlatformPath). */
export const BINARY_IN_ZIP: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'electron',
  darwin: 'Electron.app/Contents/MacOS/Electron',
};
export const binaryInZip = BINARY_IN_ZIP[process.platform];
export const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
export const zipPath = `/v${version}/${zipName}`;
export const sumsPath = `/v${version}/SHASUMS256.txt`;
export const READY_LINE = 'Greenroom: window open';
export const PANEL_LINE = /^Greenroom panel: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m;
export const INSTEAD = 'Use the panel in your browser instead (link below).';
export const LOG = 'node_modules/.cache/greenroom/electron-install.log';

// --- The mirror ---

export interface Mirror {
  /** ELECTRON_MIRROR: the base @electron/get appends `v<version>/<file>` to. */
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves the stub zip and SHASUMS256.txt; `stall` sends half the zip and then nothing; `status` answers the
 * zip with that status and no body (a mirror that is down).
 */
export async function startMirror(options: {
  zip: Buffer;
  checksum: string;
  stall?: boolean;
  status?: number;
}): Promise<Mirror> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === zipPath && options.status !== undefined) {
      res.writeHead(options.status).end();
    } else if (req.url === zipPath) {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': options.zip.length });
      if (options.stall) {
        res.write(options.zip.subarray(0, options.zip.length / 2));
      } else {
        res.end(options.zip);
      }
    } else if (req.url === sumsPath) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`${options.checksum} *${zipName}\n`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: taken from the system, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// --- The app copy and its runs ---

export const temps: string[] = [];
export const running = new Set<ChildProcessByStdio<null, Readable, Readable>>();
export const fx = {} as {
  panelJs: string;
};

/**
 * A describe block's set-up and clean-up: the panel entry built once, every app run it started killed after each
 * test, every temp dir removed at the end (`after` runs then, before the dirs go).
 */
export function useLaunchLifecycle(after?: () => void): void {
  beforeAll(buildPanelEntry);
  afterEach(() => {
    for (const child of running) {
      // The whole group: a launcher killed alone would leave its panel server child running, holding its port.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
  });
  afterAll(() => {
    for (const dir of temps) {
      rmSync(dir, { recursive: true, force: true });
    }
    after?.();
  });
}

/** Electron's release zip for this platform with the stub binary (`fixtures/stub-electron.sh`) in it. */
export function stubElectronZip(): Buffer {
  const stub = readFileSync(join(import.meta.dirname, 'fixtures', 'stub-electron.sh'));
  return storedZip([
    { name: binaryInZip ?? 'electron', data: stub, mode: 0o755 },
    { name: 'version', data: Buffer.from(`v${version}`), mode: 0o644 },
  ]);
}

/** Builds the panel-only entry once, as scripts/build.mjs does, for the app copies to run. */
export async function buildPanelEntry(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'greenroom-electron-install-panel-'));
  temps.push(dir);
  fx.panelJs = join(dir, 'panel.js');
  await build({
    absWorkingDir: repo,
    entryPoints: ['electron/panel-main.ts'],
    outfile: fx.panelJs,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
}

/** A temp app root whose electron package has no binary yet. */
export function makeAppCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'greenroom-electron-install-'));
  temps.push(root);
  mkdirSync(join(root, 'scripts'));
  for (const file of readdirSync(join(repo, 'scripts')).filter((name) => name.endsWith('.mjs'))) {
    copyFileSync(join(repo, 'scripts', file), join(root, 'scripts', file));
  }
  writeFileSync(join(root, 'scripts', 'build.mjs'), '// The test copy is built by electron-install.test.ts.\n');
  mkdirSync(join(root, 'out', 'main'), { recursive: true });
  copyFileSync(fx.panelJs, join(root, 'out', 'main', 'panel.js'));
  mkdirSync(join(root, 'node_modules'));
  for (const entry of readdirSync(join(repo, 'node_modules'))) {
    if (!['electron', '.cache', '.bin'].includes(entry)) {
      symlinkSync(join(repo, 'node_modules', entry), join(root, 'node_modules', entry));
    }
  }
  const source = electronPackageDir(repo);
  // Its own node_modules holds type packages only; a dist/ or path.txt from a real install stays behind.
  cpSync(source, electronPackageDir(root), {
    recursive: true,
    filter: (path) => dirname(path) !== source || !['node_modules', 'dist', 'path.txt'].includes(basename(path)),
  });
  return root;
}

export interface Run {
  /** Resolves with the exit code once the process has exited and its output is read. */
  exited: Promise<number | null>;
  output(): string;
  /** What it wrote to stderr so far (the app's log lines). */
  errors(): string;
  /** Resolves once stdout matches, or rejects with the output when the process ends first. */
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<number | null>;
  /** Ctrl-C in a terminal: SIGINT to the whole process group. */
  interrupt(): Promise<number | null>;
  /** The terminal closed: SIGHUP to the whole process group. */
  hangUp(): Promise<number | null>;
  /** SIGKILL to the launcher alone, as a task manager does: it passes nothing on. Resolves once it is gone. */
  kill(): Promise<void>;
}

/**
 * Runs `node scripts/start.mjs` in `root` as `npm start` does (or another script, as `npm run <script>`
 * does), with only the Electron variables given.
 */
export function startApp(
  root: string,
  env: Record<string, string>,
  { script = 'start.mjs', args = [], viaShell = false }: { script?: string; args?: string[]; viaShell?: boolean } = {},
): Run {
  // No inherited ELECTRON_* or npm_config_electron_* (a developer's own mirror) and no GREENROOM_* setting.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/electron|greenroom/i.test(key) && key !== 'force_no_cache'),
  );
  const command = [process.execPath, join(root, 'scripts', script), ...args];
  // `viaShell`: in a shell that waits for it, as npm runs a script (`stop` then signals the shell, as npm does,
  // and the shell exits without passing the signal on).
  const quoted = command.map((part) => `'${part}'`).join(' ');
  const [file, ...argv] = viaShell ? ['sh', '-c', `${quoted}; exit $?`] : command;
  const child = spawn(file!, argv, {
    cwd: root,
    env: {
      ...inherited,
      GREENROOM_DATA_DIR: join(root, 'data'),
      GREENROOM_PANEL_PORT: '0',
      // Not the default 7532: a running Greenroom, or another test, may hold it.
      GREENROOM_WEBHOOK_PORT: '0',
      GREENROOM_SANDBOX_ACTIVITY: 'off',
      GREENROOM_STUB_ELECTRON_MARKER: join(root, 'stub-ran.txt'),
      electron_config_cache: join(root, 'electron-cache'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a test that fails half-way can stop everything it started (`useLaunchLifecycle`).
    detached: true,
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    watchers.forEach((check) => check());
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
      watchers.forEach((check) => check());
    }),
  );
  return {
    exited,
    output: () => stdout,
    errors: () => stderr,
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(stdout)) {
            watchers.delete(check);
            resolve();
          } else if (!running.has(child)) {
            watchers.delete(check);
            reject(new Error(`${script} ended without ${pattern}:\n${stdout}\n${stderr}`));
          }
        };
        watchers.add(check);
        check();
      }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
    interrupt: () => {
      process.kill(-child.pid!, 'SIGINT');
      return exited;
    },
    hangUp: () => {
      process.kill(-child.pid!, 'SIGHUP');
      return exited;
    },
    kill: () =>
      new Promise<void>((resolve) => {
        // 'exit', not 'close': a child it started may still hold the output pipes.
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** The lines of `output` that say why there is no desktop window. */
export function fallbackLines(output: string): string[] {
  return output.split('\n').filter((line) => line.endsWith(INSTEAD));
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

// --- The cases ---

/**
 * The desktop install path (issue 9): where the Electron binary is missing, `npm start` fetches it through
 * Electron's own installer, verifies it against the mirror's SHASUMS256.txt, shows progress and launches
 * it. A bad checksum, a mirror that refuses connections (offline), a download stopped at the time limit,
 * and the opt-out each end in one plain line and the panel server. Offline: a mirror on 127.0.0.1 serves a
 * stub Electron (fixtures/stub-electron.sh) zipped at the path @electron/get asks for, found through
 * ELECTRON_MIRROR, with electron_use_remote_checksums=1 and electron_config_cache in the test's temp dir.
 *
 * Each case runs scripts/start.mjs in a temp copy of the app: the scripts, a copy of the electron
 * package, the panel entry built from the sources, and links to every other package. Electron's installer
 * writes into the electron package's own directory, so the repository's node_modules/electron is never
 * touched and the Electron smoke test keeps skipping where no real binary exists. The copy's build step
 * is a stub: `npm start` would rebuild the shared out/ that other tests read at the same time.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
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
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { electronPackageDir, findElectronBinary } from '../../../scripts/find-electron.mjs';
import { DEFAULT_TIMEOUT_S, parseInstallTimeout, TIMEOUT_VARIABLE } from '../../../scripts/electron-install-policy.mjs';
import { storedZip } from './fixtures/stored-zip';

const repo = join(import.meta.dirname, '..', '..', '..');
const { version } = JSON.parse(readFileSync(join(electronPackageDir(repo), 'package.json'), 'utf8')) as {
  version: string;
};
/** Where install.js looks for the binary inside the zip (its getPlatformPath). */
const BINARY_IN_ZIP: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'electron',
  darwin: 'Electron.app/Contents/MacOS/Electron',
};
const binaryInZip = BINARY_IN_ZIP[process.platform];
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const zipPath = `/v${version}/${zipName}`;
const sumsPath = `/v${version}/SHASUMS256.txt`;
const READY_LINE = 'Greenroom: window open';
const PANEL_LINE = /^Greenroom panel: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/m;
const INSTEAD = 'Use the panel in your browser instead (link below).';
const LOG = 'node_modules/.cache/greenroom/electron-install.log';

// --- The mirror ---

interface Mirror {
  /** ELECTRON_MIRROR: the base @electron/get appends `v<version>/<file>` to. */
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves the stub zip and SHASUMS256.txt; `stall` sends half the zip and then nothing. */
async function startMirror(options: { zip: Buffer; checksum: string; stall?: boolean }): Promise<Mirror> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === zipPath) {
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
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// --- The app copy and its runs ---

const temps: string[] = [];
const running = new Set<ChildProcessByStdio<null, Readable, Readable>>();
let panelJs: string;

/** A temp app root whose electron package has no binary yet. */
function makeAppCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'greenroom-electron-install-'));
  temps.push(root);
  mkdirSync(join(root, 'scripts'));
  for (const file of readdirSync(join(repo, 'scripts')).filter((name) => name.endsWith('.mjs'))) {
    copyFileSync(join(repo, 'scripts', file), join(root, 'scripts', file));
  }
  writeFileSync(join(root, 'scripts', 'build.mjs'), '// The test copy is built by electron-install.test.ts.\n');
  mkdirSync(join(root, 'out', 'main'), { recursive: true });
  copyFileSync(panelJs, join(root, 'out', 'main', 'panel.js'));
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

interface Run {
  /** Resolves with the exit code once the process has exited and its output is read. */
  exited: Promise<number | null>;
  output(): string;
  /** Resolves once stdout matches, or rejects with the output when the process ends first. */
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<number | null>;
}

/** Runs `node scripts/start.mjs` in `root` as `npm start` does, with only the Electron variables given. */
function startApp(root: string, env: Record<string, string>): Run {
  // No inherited ELECTRON_* or npm_config_electron_* (a developer's own mirror) and no GREENROOM_* setting.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/electron|greenroom/i.test(key) && key !== 'force_no_cache'),
  );
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
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
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(stdout)) {
            watchers.delete(check);
            resolve();
          } else if (!running.has(child)) {
            watchers.delete(check);
            reject(new Error(`start.mjs ended without ${pattern}:\n${stdout}\n${stderr}`));
          }
        };
        watchers.add(check);
        check();
      }),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The lines of `output` that say why there is no desktop window. */
function fallbackLines(output: string): string[] {
  return output.split('\n').filter((line) => line.endsWith(INSTEAD));
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

// --- The cases ---

describe.skipIf(!binaryInZip)('npm start without an Electron binary', () => {
  const stub = readFileSync(join(import.meta.dirname, 'fixtures', 'stub-electron.sh'));
  const zip = storedZip([
    { name: binaryInZip ?? 'electron', data: stub, mode: 0o755 },
    { name: 'version', data: Buffer.from(`v${version}`), mode: 0o644 },
  ]);
  const repoElectronBefore = findElectronBinary(repo);

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-electron-install-panel-'));
    temps.push(dir);
    panelJs = join(dir, 'panel.js');
    // As scripts/build.mjs builds the panel-only entry.
    await build({
      absWorkingDir: repo,
      entryPoints: ['electron/panel-main.ts'],
      outfile: panelJs,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      packages: 'external',
      logLevel: 'warning',
    });
  });

  afterEach(() => {
    for (const child of running) {
      child.kill('SIGKILL');
    }
  });

  afterAll(() => {
    for (const dir of temps) {
      rmSync(dir, { recursive: true, force: true });
    }
    // The repository's own electron package is as it was: the stub never landed there.
    expect(findElectronBinary(repo)).toEqual(repoElectronBefore);
  });

  it('downloads the binary through the mirror, checks it against SHASUMS256.txt and launches it', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(zip) });
    try {
      const root = makeAppCopy();
      const run = startApp(root, { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1' });
      // Either the stub's window line or the panel's: without the download, start.mjs serves the panel.
      await run.waitFor(/^(Greenroom: window open|Greenroom panel: .*)$/m);
      expect(run.output()).toContain(READY_LINE);
      expect(await run.exited).toBe(0);
      const output = run.output();
      expect(mirror.requests).toEqual([zipPath, sumsPath]);
      expect(output).toContain(`Installing Electron ${version}, the desktop window's runtime (once)…\n`);
      expect(output).toContain(`  downloading 1 kB from ${new URL(mirror.url).host}\n`);
      expect(output).toMatch(/^ {2}100% of \d+ kB$/m);
      expect(output).toMatch(new RegExp(`^Electron ${version} installed in \\d+ s\\.$`, 'm'));
      expect(output).toContain(READY_LINE);
      expect(fallbackLines(output)).toEqual([]);
      const binary = join(electronPackageDir(root), 'dist', 'electron');
      expect(readFileSync(join(root, 'stub-ran.txt'), 'utf8')).toBe(`${binary}\n${root}\n`);
      expect(findElectronBinary(root)).toEqual({ ok: true, path: binary });

      // The next start finds the binary and asks the mirror for nothing.
      rmSync(join(root, 'stub-ran.txt'));
      const again = startApp(root, { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1' });
      expect(await again.exited).toBe(0);
      expect(again.output()).not.toContain('Installing Electron');
      expect(existsSync(join(root, 'stub-ran.txt'))).toBe(true);
      expect(mirror.requests).toHaveLength(2);
    } finally {
      await mirror.close();
    }
  });

  it('refuses a download that does not match its checksum, says so in one line and serves the panel', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(Buffer.from('something else')) });
    try {
      const root = makeAppCopy();
      const run = startApp(root, { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1' });
      await run.waitFor(PANEL_LINE);
      expect(fallbackLines(run.output())).toEqual([
        'Could not download Electron for the desktop window: the download did not match its published ' +
          `checksum, so it was not used. Details: ${LOG}. ${INSTEAD}`,
      ]);
      expect(mirror.requests).toEqual([zipPath, sumsPath]);
      expect(existsSync(join(root, 'stub-ran.txt'))).toBe(false);
      expect(findElectronBinary(root).ok).toBe(false);
      expect(readFileSync(join(root, LOG), 'utf8')).toContain(
        `Generated checksum for "${zipName}" did not match expected checksum.`,
      );
      expect(await run.stop()).toBe(0);
    } finally {
      await mirror.close();
    }
  });

  it('offline (nothing listening at the mirror): one line, then the panel', async () => {
    const port = await closedPort();
    const root = makeAppCopy();
    const run = startApp(root, { ELECTRON_MIRROR: `http://127.0.0.1:${port}/` });
    await run.waitFor(PANEL_LINE);
    expect(fallbackLines(run.output())).toEqual([
      `Could not download Electron for the desktop window: 127.0.0.1:${port} refused the connection. ` +
        `Details: ${LOG}. ${INSTEAD}`,
    ]);
    expect(await run.stop()).toBe(0);
  });

  it('stops a download at the time limit, and the next start does not wait for it again', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(zip), stall: true });
    try {
      const root = makeAppCopy();
      const env = { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1', [TIMEOUT_VARIABLE]: '1' };
      const run = startApp(root, env);
      await run.waitFor(PANEL_LINE);
      expect(fallbackLines(run.output())).toEqual([
        expect.stringMatching(
          /^Could not download Electron for the desktop window: it took longer than 1 s \(\d+% done\); GREENROOM_ELECTRON_INSTALL_TIMEOUT_S allows longer\. Details: /,
        ),
      ]);
      expect(mirror.requests).toEqual([zipPath]);
      expect(await run.stop()).toBe(0);

      const again = startApp(root, env);
      await again.waitFor(PANEL_LINE);
      expect(fallbackLines(again.output())).toEqual([
        expect.stringMatching(
          /^Skipped downloading Electron for the desktop window: it failed a moment ago \(it took longer than 1 s .*\); `npm run install-electron` tries again now\. Use the panel/,
        ),
      ]);
      expect(again.output()).not.toContain('Installing Electron');
      expect(mirror.requests).toEqual([zipPath]);
      expect(await again.stop()).toBe(0);
    } finally {
      await mirror.close();
    }
  });

  it('GREENROOM_NO_ELECTRON_DOWNLOAD=1 serves the panel without asking the mirror', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(zip) });
    try {
      const root = makeAppCopy();
      const run = startApp(root, { ELECTRON_MIRROR: mirror.url, GREENROOM_NO_ELECTRON_DOWNLOAD: '1' });
      await run.waitFor(PANEL_LINE);
      expect(fallbackLines(run.output())).toEqual([
        `Electron is not downloaded and GREENROOM_NO_ELECTRON_DOWNLOAD=1 says not to. ${INSTEAD}`,
      ]);
      expect(mirror.requests).toEqual([]);
      expect(await run.stop()).toBe(0);
    } finally {
      await mirror.close();
    }
  });
});

describe(TIMEOUT_VARIABLE, () => {
  it('takes whole seconds and names itself and its limits when it cannot', () => {
    expect(parseInstallTimeout({})).toEqual({ seconds: DEFAULT_TIMEOUT_S });
    expect(parseInstallTimeout({ [TIMEOUT_VARIABLE]: '45' })).toEqual({ seconds: 45 });
    expect(parseInstallTimeout({ [TIMEOUT_VARIABLE]: '2.5' })).toEqual({
      seconds: DEFAULT_TIMEOUT_S,
      warning: `${TIMEOUT_VARIABLE} must be a whole number of seconds from 1 to 3600 (got "2.5"); using ${DEFAULT_TIMEOUT_S}.`,
    });
  });
});

/**
 * `npm run dev` where an Electron binary is installed: the script builds main and the preload,
 * starts Vite, and starts the binary on the repository with GREENROOM_RENDERER_URL pointing at Vite; when
 * the window closes (the binary exits), dev ends with it. The Electron binary cannot be downloaded here,
 * so a stand-in takes its place through ELECTRON_OVERRIDE_DIST_PATH (the variable Electron's own package
 * honours, docs/decisions.md): it records what it was started with, loads the page from the URL it was
 * given, and exits. What the real window does with that URL is electron/main.ts's (one line, unpackaged only).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronJsFlags } from '../../scripts/app-node-flags.mjs';

const root = join(import.meta.dirname, '..', '..');
const COPIED = ['electron', 'renderer', 'sandbox', 'shared', 'scripts', 'package.json', 'vite.config.ts'];
const COPIED_GLOBS = ['tsconfig.base.json', 'tsconfig.json', 'tsconfig.node.json', 'tsconfig.web.json'];

/** The stand-in "Electron": records argv and the renderer URL, fetches the page there, then closes. */
const STAND_IN = `#!${process.execPath}
// Runs as CommonJS or as an ES module alike (the copy's package.json says "type": "module").
void (async () => {
  const { writeFileSync } = await import('node:fs');
  const report = (fields) => writeFileSync(process.env.STAND_IN_REPORT, JSON.stringify({ args: process.argv.slice(2), url, ...fields }));
  const url = process.env.GREENROOM_RENDERER_URL;
  try {
    const response = await fetch(url);
    report({ status: response.status, page: await response.text() });
    process.exit(0);
  } catch (error) {
    report({ error: String(error) });
    process.exit(1);
  }
})();
`;

interface Report {
  args: string[];
  url: string;
  status?: number;
  page?: string;
  error?: string;
}

describe('npm run dev with an Electron binary', () => {
  let work: string;
  let dev: ChildProcess;
  let output = '';
  let exitCode: number | null = null;
  let exited: Promise<void>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'greenroom-dev-desktop-'));
    for (const name of [...COPIED, ...COPIED_GLOBS]) {
      cpSync(join(root, name), join(work, name), { recursive: true });
    }
    symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
    const dist = join(work, 'fake-electron');
    mkdirSync(dist);
    writeFileSync(join(dist, 'electron'), STAND_IN);
    chmodSync(join(dist, 'electron'), 0o755);

    dev = spawn(process.execPath, [join(work, 'scripts', 'dev.mjs')], {
      cwd: work,
      env: {
        ...process.env,
        ELECTRON_OVERRIDE_DIST_PATH: dist,
        STAND_IN_REPORT: join(work, 'report.json'),
        GREENROOM_DATA_DIR: join(work, 'data'),
        GREENROOM_DEV_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    exited = new Promise((resolve) =>
      dev.once('exit', (code) => {
        exitCode = code;
        resolve();
      }),
    );
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`dev did not end within 60 s:\n${output}`)), 60_000),
    );
    await Promise.race([exited, timeout]);
  });

  afterAll(() => {
    if (dev && dev.exitCode === null) {
      dev.kill('SIGKILL');
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('builds main and the preload, then starts the binary on the repository with the panel from Vite', () => {
    expect(existsSync(join(work, 'out', 'main', 'index.js'))).toBe(true);
    expect(existsSync(join(work, 'out', 'preload', 'index.cjs'))).toBe(true);
    const report = JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as Report;
    expect(report.error).toBeUndefined();
    // The app's heap settings reach Electron's main process on its command line (scripts/app-node-flags.mjs).
    expect(report.args).toEqual([electronJsFlags(), work]);
    expect(report.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(report.status).toBe(200);
    // Vite's page, from source: its client script and the panel's entry module.
    expect(report.page).toContain('/@vite/client');
    expect(output).toContain(`the desktop window shows the panel from ${report.url}`);
  });

  it('ends when the window closes', () => {
    expect(exitCode, output).toBe(0);
  });
});

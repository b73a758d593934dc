#!/usr/bin/env node
// Fetches the Electron binary through Electron's own installer: node_modules/electron/install.js, the
// `install-electron` bin, which electron@45 runs on no install hook of its own. It downloads with
// @electron/get, so everything Electron documents applies unchanged: ELECTRON_MIRROR, ELECTRON_CUSTOM_DIR,
// ELECTRON_CUSTOM_FILENAME, the cache (electron_config_cache), the checksums bundled in the package (or the
// mirror's SHASUMS256.txt with electron_use_remote_checksums=1), ELECTRON_GET_USE_PROXY. This file adds
// what a first `npm start` needs around it: visible progress, a time limit, one plain reason on failure,
// and the memory of a failed download, so later starts do not try again by themselves (those decisions are
// in electron-install-policy.mjs).
//
// `npm start` calls installElectron(); `npm run install-electron` runs this file to try again now.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  asSentence,
  explainFailure,
  forgetFailure,
  hostOf,
  installLogPath,
  installStateDir,
  parseInstallTimeout,
  rememberFailure,
} from './electron-install-policy.mjs';
import { electronPackageDir, findElectronBinary } from './find-electron.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// --- Progress ---

/** @param {number} bytes */
function size(bytes) {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Math.round(mb)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/**
 * Prints the zip's progress: one rewritten line on a terminal, otherwise a line every 20%.
 * @param {{ write(text: string): unknown, isTTY?: boolean }} out
 */
function createProgress(out) {
  let shown = -1;
  let latest = null;
  let open = false;
  return {
    /** @param {number} transferred @param {number | null} total */
    update(transferred, total) {
      if (total === null) {
        const mb = Math.floor(transferred / (10 * 1024 * 1024)) * 10;
        if (mb > shown) {
          shown = mb;
          out.write(out.isTTY ? `\r  ${size(transferred)} so far` : `  ${mb} MB so far\n`);
          open = Boolean(out.isTTY);
        }
        return;
      }
      const percent = Math.min(100, Math.floor((transferred / total) * 100));
      latest = percent;
      const due = out.isTTY ? percent > shown : percent >= shown + 20 || (percent === 100 && shown < 100);
      if (due) {
        shown = percent;
        const text = `  ${percent}% of ${size(total)}`;
        out.write(out.isTTY ? `\r${text}` : `${text}\n`);
        open = Boolean(out.isTTY);
      }
    },
    end() {
      if (open) {
        out.write('\n');
        open = false;
      }
    },
    /** How much of the zip has arrived, in percent; null before any or when its size is unknown. */
    get percent() {
      return latest;
    },
  };
}

// --- The install ---

/**
 * The version of the electron package, the one its installer downloads.
 * @param {string} root
 * @returns {string}
 */
export function electronVersion(root) {
  return JSON.parse(readFileSync(join(electronPackageDir(root), 'package.json'), 'utf8')).version;
}

/** @param {string} line one line from electron-download-watch.mjs */
function parseEvent(line) {
  try {
    const event = JSON.parse(line);
    return event && typeof event === 'object' ? event : {};
  } catch {
    return {};
  }
}

/**
 * Runs Electron's installer in a child process with progress on `out` and a time limit.
 * @param {string} root the repository root
 * @param {{ env?: Record<string, string | undefined>, out?: { write(text: string): unknown, isTTY?: boolean }, now?: () => number }} [options]
 * @returns {Promise<{ ok: true, path: string } | { ok: false, reason: string }>}
 */
export async function installElectron(root, options = {}) {
  const env = options.env ?? process.env;
  const out = options.out ?? process.stdout;
  const now = options.now ?? Date.now;
  const packageDir = electronPackageDir(root);
  const version = electronVersion(root);
  const timeout = parseInstallTimeout(env);
  if (timeout.warning) {
    out.write(`${timeout.warning}\n`);
  }
  out.write(`Installing Electron ${version}, the desktop window's runtime (once)…\n`);
  const started = now();
  // Its own temp dir: @electron/get downloads under os.tmpdir(), and a download stopped at the time limit
  // would otherwise leave its partial file there.
  const temp = mkdtempSync(join(tmpdir(), 'greenroom-electron-install-'));
  const progress = createProgress(out);
  /** @type {{ url: string, code?: string } | null} */
  let fetchError = null;
  let output = '';
  let timedOut = false;
  const exitCode = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', pathToFileURL(join(here, 'electron-download-watch.mjs')).href, join(packageDir, 'install.js')],
      {
        cwd: packageDir,
        env: { ...env, ELECTRON_GET_NO_PROGRESS: '1', TMPDIR: temp, TMP: temp, TEMP: temp },
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeout.seconds * 1000);
    child.stdout.on('data', (chunk) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk) => (output += chunk.toString('utf8')));
    let pending = '';
    child.stdio[3].on('data', (chunk) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const event = parseEvent(line);
        const isZip = typeof event.url === 'string' && event.url.endsWith('.zip');
        if (event.type === 'error') {
          fetchError = { url: event.url, code: event.code };
        } else if (event.type === 'response' && isZip && event.status === 200) {
          const amount = typeof event.total === 'number' ? `${size(event.total)} ` : '';
          out.write(`  downloading ${amount}from ${hostOf(event.url)}\n`);
        } else if (event.type === 'progress' && isZip) {
          progress.update(event.transferred, event.total);
        } else if (event.type === 'done' && isZip) {
          progress.update(event.transferred, event.total ?? event.transferred);
          progress.end();
          out.write('  checking its checksum and unpacking it\n');
        }
      }
    });
    child.on('error', (error) => {
      output += `${error.message}\n`;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  progress.end();
  rmSync(temp, { recursive: true, force: true });
  const seconds = Math.round((now() - started) / 1000);
  mkdirSync(installStateDir(root), { recursive: true });
  writeFileSync(join(root, installLogPath(root)), output);
  const found = exitCode === 0 && !timedOut ? findElectronBinary(root) : null;
  if (found?.ok) {
    forgetFailure(root);
    out.write(`Electron ${version} installed in ${seconds} s.\n`);
    return { ok: true, path: found.path };
  }
  const reason = found
    ? `the installer finished but ${found.reason}`
    : explainFailure({
        timedOut,
        timeoutS: timeout.seconds,
        percent: progress.percent,
        fetchError,
        stderr: output,
        exitCode,
      });
  rememberFailure(root, { version, failedAt: now(), seconds, timedOut, reason });
  return { ok: false, reason };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(here, '..');
  const found = findElectronBinary(root);
  if (found.ok) {
    console.log(`Electron is installed: ${found.path}`);
  } else if (!found.installable) {
    console.error(`Cannot install Electron: ${found.reason}.`);
    process.exit(1);
  } else {
    const result = await installElectron(root);
    if (!result.ok) {
      console.error(`Could not download Electron: ${asSentence(result.reason)} Details: ${installLogPath(root)}`);
      process.exit(1);
    }
  }
}

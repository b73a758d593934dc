#!/usr/bin/env node
// Fetches the Electron binary through Electron's own installer: node_modules/electron/install.js, the
// `install-electron` bin, which electron@45 runs on no install hook of its own. It downloads with
// @electron/get, so everything Electron documents applies unchanged: ELECTRON_MIRROR, ELECTRON_CUSTOM_DIR,
// ELECTRON_CUSTOM_FILENAME, the cache (electron_config_cache), the checksums bundled in the package (or the
// mirror's SHASUMS256.txt with electron_use_remote_checksums=1), ELECTRON_GET_USE_PROXY. This file adds
// what a first `npm start` needs around it: visible progress, a time limit, one plain reason on failure,
// and not waiting again for a download that was slow to fail a moment ago.
//
// `npm start` calls installElectron(); `npm run install-electron` runs this file to try again now.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { electronPackageDir, findElectronBinary } from './find-electron.mjs';

const here = dirname(fileURLToPath(import.meta.url));

export const TIMEOUT_VARIABLE = 'GREENROOM_ELECTRON_INSTALL_TIMEOUT_S';
/** Electron's zip is about 100 MB: five minutes is enough at 3 Mbit/s; slower links raise the limit. */
export const DEFAULT_TIMEOUT_S = 300;
const MAX_TIMEOUT_S = 3600;
/** A failed attempt that took at least this long is not repeated on every start (see shouldSkipInstall). */
const SLOW_FAILURE_S = 10;
/** How long such a failure is remembered. */
export const RETRY_PAUSE_MS = 30 * 60 * 1000;

// --- Settings and memory ---

/**
 * The time limit from GREENROOM_ELECTRON_INSTALL_TIMEOUT_S.
 * @param {Record<string, string | undefined>} env
 * @returns {{ seconds: number, warning?: string }}
 */
export function parseInstallTimeout(env) {
  const raw = env[TIMEOUT_VARIABLE];
  if (raw === undefined || raw === '') {
    return { seconds: DEFAULT_TIMEOUT_S };
  }
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TIMEOUT_S) {
    return {
      seconds: DEFAULT_TIMEOUT_S,
      warning: `${TIMEOUT_VARIABLE} must be a whole number of seconds from 1 to ${MAX_TIMEOUT_S} (got "${raw}"); using ${DEFAULT_TIMEOUT_S}.`,
    };
  }
  return { seconds };
}

/** @param {string} root */
export function installStateDir(root) {
  return join(root, 'node_modules', '.cache', 'greenroom');
}

/**
 * @typedef {{ failedAt: number, seconds: number, timedOut: boolean, reason: string }} FailureMemory
 */

/**
 * @param {string} root
 * @returns {FailureMemory | null}
 */
export function readFailureMemory(root) {
  try {
    const parsed = JSON.parse(readFileSync(join(installStateDir(root), 'electron-install.json'), 'utf8'));
    const valid =
      typeof parsed?.failedAt === 'number' &&
      typeof parsed.seconds === 'number' &&
      typeof parsed.timedOut === 'boolean' &&
      typeof parsed.reason === 'string';
    return valid ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Whether to skip the download on this start. Offline, the installer fails within a second, so trying on
 * every start costs nothing and picks the network up as soon as it is back. A blocked or very slow network
 * fails only at a connect timeout or the time limit; repeating that on every start would make each start
 * that much slower, so such a failure is remembered for RETRY_PAUSE_MS.
 * @param {FailureMemory | null} memory
 * @param {number} now
 * @returns {string | null} why the download is skipped, or null to try it
 */
export function shouldSkipInstall(memory, now) {
  if (!memory || !(memory.timedOut || memory.seconds >= SLOW_FAILURE_S)) {
    return null;
  }
  const ago = now - memory.failedAt;
  if (ago < 0 || ago >= RETRY_PAUSE_MS) {
    return null;
  }
  const minutes = Math.round(ago / 60_000);
  const when = minutes < 1 ? 'a moment ago' : `${minutes} min ago`;
  return `it failed ${when} (${memory.reason}); \`npm run install-electron\` tries again now`;
}

// --- Reasons in a streamer's words ---

/**
 * One short reason for a failed install, from what the installer reported.
 * @param {{ timedOut: boolean, timeoutS: number, percent: number | null, fetchError: { url: string, code?: string } | null, stderr: string, exitCode: number | null }} attempt
 */
export function explainFailure({ timedOut, timeoutS, percent, fetchError, stderr, exitCode }) {
  if (timedOut) {
    const done = percent === null ? '' : ` (${percent}% done)`;
    return `it took longer than ${timeoutS} s${done}; ${TIMEOUT_VARIABLE} allows longer`;
  }
  if (fetchError) {
    const host = hostOf(fetchError.url);
    switch (fetchError.code) {
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `${host} could not be found; are you offline?`;
      case 'ECONNREFUSED':
        return `${host} refused the connection`;
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'UND_ERR_HEADERS_TIMEOUT':
        return `${host} did not answer`;
      default:
        return `could not reach ${host}`;
    }
  }
  const http = /Response code (\d+) \(([^)]*)\) for (\S+)/.exec(stderr);
  if (http) {
    return `${hostOf(http[3])} answered ${http[1]} ${http[2]} for ${basename(http[3])}`;
  }
  // The messages of sumchecker's errors, which @electron/get's checksum check throws.
  if (/did not match expected checksum/.test(stderr)) {
    return 'the download did not match its published checksum, so it was not used';
  }
  if (/No checksum found in checksum file|Could not parse checksum file/.test(stderr)) {
    return 'no usable checksum was published for the download, so it was not used';
  }
  if (/ERR_REQUIRE_ESM/.test(stderr)) {
    return `Electron's installer needs Node 22.12 or newer (this is Node ${process.versions.node})`;
  }
  const first = stderr
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('at '));
  return first
    ? `Electron's installer stopped: ${first.slice(0, 160)}`
    : `Electron's installer exited with code ${exitCode}`;
}

/** @param {string} url */
function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return 'the download server';
  }
}

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
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const timeout = parseInstallTimeout(env);
  if (timeout.warning) {
    out.write(`${timeout.warning}\n`);
  }
  out.write(`Downloading Electron ${version}, the desktop window's runtime (once, about 100 MB)…\n`);
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
        } else if (event.type === 'request' && isZip) {
          out.write(`  from ${hostOf(event.url)}\n`);
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
  const stateDir = installStateDir(root);
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, 'electron-install.log'), output);
  const found = exitCode === 0 && !timedOut ? findElectronBinary(root) : null;
  if (found?.ok) {
    rmSync(join(stateDir, 'electron-install.json'), { force: true });
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
  /** @type {FailureMemory} */
  const memory = { failedAt: now(), seconds, timedOut, reason };
  writeFileSync(join(stateDir, 'electron-install.json'), `${JSON.stringify(memory)}\n`);
  return { ok: false, reason };
}

/** Where the installer's own output of the last attempt is kept, relative to the repository root. */
export function installLogPath(root) {
  return relative(root, join(installStateDir(root), 'electron-install.log'));
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
      console.error(`Could not download Electron: ${result.reason}. Details: ${installLogPath(root)}`);
      process.exit(1);
    }
  }
}

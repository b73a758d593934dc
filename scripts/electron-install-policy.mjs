// The decisions around scripts/install-electron.mjs, kept apart from the process it runs: the time limit
// (GREENROOM_ELECTRON_INSTALL_TIMEOUT_S), the memory of a failed attempt and whether to try again on this
// start, and the one short reason a streamer reads when the download fails.
//
// The rule the README states: `npm start` downloads Electron once. After a failed download it does not try
// again by itself, whatever the failure; `npm run install-electron` does, and so does the first start after
// the memory is gone (a fresh `npm ci`) or names another Electron version (an upgrade)
// (../docs/decisions.md#a-quiet-and-incremental-npm-start).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

export const TIMEOUT_VARIABLE = 'GREENROOM_ELECTRON_INSTALL_TIMEOUT_S';
/** Electron's zip is about 100 MB: five minutes is enough at 3 Mbit/s; slower links raise the limit. */
export const DEFAULT_TIMEOUT_S = 300;
const MAX_TIMEOUT_S = 3600;

// --- Time limit and memory ---

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

const MEMORY_FILE = 'electron-install.json';

/**
 * Where the last attempt's memory and log are kept (git-ignored with node_modules).
 * @param {string} root
 */
export function installStateDir(root) {
  return join(root, 'node_modules', '.cache', 'greenroom');
}

/**
 * @typedef {{ version: string, failedAt: number, seconds: number, timedOut: boolean, reason: string }} FailureMemory
 */

/**
 * @param {string} root
 * @returns {FailureMemory | null}
 */
export function readFailureMemory(root) {
  try {
    const parsed = JSON.parse(readFileSync(join(installStateDir(root), MEMORY_FILE), 'utf8'));
    const valid =
      typeof parsed?.version === 'string' &&
      typeof parsed.failedAt === 'number' &&
      typeof parsed.seconds === 'number' &&
      typeof parsed.timedOut === 'boolean' &&
      typeof parsed.reason === 'string';
    return valid ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Keeps a failed attempt for the next start (shouldSkipInstall).
 * @param {string} root
 * @param {FailureMemory} memory
 */
export function rememberFailure(root, memory) {
  mkdirSync(installStateDir(root), { recursive: true });
  writeFileSync(join(installStateDir(root), MEMORY_FILE), `${JSON.stringify(memory)}\n`);
}

/** @param {string} root */
export function forgetFailure(root) {
  rmSync(join(installStateDir(root), MEMORY_FILE), { force: true });
}

/**
 * Whether to skip the download on this start: yes once a download of this Electron version failed, however
 * quickly. Trying on every start made every start of someone offline or behind a block print the same
 * failure again, and a slow network wait minutes each time; one plain line saying how to try again costs
 * nothing.
 * @param {FailureMemory | null} memory
 * @param {string} version the Electron version this start would download
 * @param {number} now
 * @returns {string | null} why the download is skipped, or null to try it
 */
export function shouldSkipInstall(memory, version, now) {
  if (!memory || memory.version !== version) {
    return null;
  }
  return `it failed ${timeAgo(now - memory.failedAt)} (${memory.reason}); \`npm run install-electron\` tries again`;
}

/** @param {number} ms */
function timeAgo(ms) {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) {
    return 'a moment ago';
  }
  if (minutes < 120) {
    return `${minutes} min ago`;
  }
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} hours ago` : `${Math.floor(hours / 24)} days ago`;
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

/**
 * Ends `text` with a full stop unless it already ends a sentence ("are you offline?").
 * @param {string} text
 */
export function asSentence(text) {
  return /[.?!]$/.test(text) ? text : `${text}.`;
}

/** @param {string} url */
export function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return 'the download server';
  }
}

/** Where the installer's own output of the last attempt is kept, relative to the repository root. */
export function installLogPath(root) {
  return relative(root, join(installStateDir(root), 'electron-install.log'));
}

// Which Node the panel server runs on (scripts/start.mjs): the launcher's own when it keeps the stream history
// (`node:sqlite`, Node 22.13 and later), else the project's Node 24, which scripts/ensure-node24.sh puts into
// `.tools/` from the npm registry (docs/history.md#where-it-runs).
//
// The download is tried once: a failure is remembered (as Electron's is, scripts/electron-install-policy.mjs), so
// a start without the registry does not wait on it again, and `bash scripts/ensure-node24.sh` tries again. npm's
// own output goes to a log file, not the terminal; the terminal gets one line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Whether this Node has `node:sqlite`, as electron/history/sqlite-driver.ts reads it. */
export function hasSqlite() {
  try {
    return typeof process.getBuiltinModule?.('node:sqlite')?.DatabaseSync === 'function';
  } catch {
    return false;
  }
}

/**
 * The Node to run the panel server on (null: the download was stopped, so nothing is to start), and at most one
 * line to print first.
 * @param {string} root the project's root
 * @returns {{ node: string | null, line: string | null }}
 */
export function panelNode(root) {
  if (hasSqlite()) {
    return { node: process.execPath, line: null };
  }
  const script = join(root, 'scripts', 'ensure-node24.sh');
  const cache = join(root, 'node_modules', '.cache', 'greenroom');
  const log = join(cache, 'node24-install.log');
  const memory = join(cache, 'node24-install-failed');
  const shown = relative(root, log);
  const without = `Greenroom: past streams are not kept in this run: they need Node 22.13 or later, this is Node ${process.versions.node}`;
  if (!existsSync(script)) {
    return { node: process.execPath, line: `${without}, and ${relative(root, script)} is missing.` };
  }
  if (`${process.platform}-${process.arch}` !== 'linux-x64') {
    // The npm registry's Node package is Linux x64 only: nothing to download here, and nothing to remember.
    return {
      node: process.execPath,
      line: `${without}; install Node 22.13 or later (Greenroom downloads Node 24 for it only on Linux x64).`,
    };
  }
  const run = (args, options) =>
    spawnSync('bash', [script, ...args], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options,
    });
  const pathOf = (result) => {
    const path = result.status === 0 ? result.stdout.trim().split('\n').pop() : undefined;
    return path && existsSync(path) ? path : null;
  };
  const installed = pathOf(run(['--no-install']));
  if (installed) {
    rmSync(memory, { force: true });
    return { node: installed, line: null };
  }
  if (existsSync(memory)) {
    return {
      node: process.execPath,
      line: `${without}; downloading Node 24 failed before (details in ${shown}), and \`bash scripts/ensure-node24.sh\` tries again.`,
    };
  }
  console.log('Greenroom: downloading Node 24 for the stream history (once, from the npm registry)…');
  // Offline, npm's own retries held the start for over a minute; without them it fails in about a second.
  const result = run([], { env: { ...process.env, npm_config_fetch_retries: '0' } });
  mkdirSync(cache, { recursive: true });
  writeFileSync(log, `${result.stderr ?? ''}${result.error ? `\n${result.error.message}\n` : ''}`);
  const path = pathOf(result);
  if (path) {
    return { node: path, line: null };
  }
  if (result.signal !== null) {
    // Stopped (Ctrl-C reaches the whole process group), not failed: nothing to start, and the next start tries again.
    return { node: null, line: null };
  }
  writeFileSync(memory, `${new Date().toISOString()}\n`);
  return {
    node: process.execPath,
    line: `${without}, and Node 24 could not be downloaded (details in ${shown}); \`bash scripts/ensure-node24.sh\` tries again.`,
  };
}

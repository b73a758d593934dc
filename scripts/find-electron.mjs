// Finds the Electron binary that `require('electron')` would run, WITHOUT requiring it: electron@45's
// index.js downloads the binary on first require when it is missing, silently and with no time limit.
// scripts/start.mjs asks here first and fetches a missing binary itself (scripts/install-electron.mjs);
// the Electron smoke test skips when there is none.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The electron npm package's directory: its install.js writes the binary to `dist/` and its path inside
 * `dist/` to `path.txt` there.
 * @param {string} root the repository root
 */
export function electronPackageDir(root) {
  return join(root, 'node_modules', 'electron');
}

/**
 * @param {string} root the repository root
 * @returns {{ ok: true, path: string } | { ok: false, reason: string, installable: boolean }}
 *   `installable`: the package is there and only its binary is missing, so Electron's installer can fetch it.
 *   Not with ELECTRON_OVERRIDE_DIST_PATH, which names a binary the user provides.
 */
export function findElectronBinary(root) {
  const dir = electronPackageDir(root);
  if (!existsSync(join(dir, 'package.json'))) {
    return { ok: false, reason: 'the electron package is not installed (npm ci installs it)', installable: false };
  }
  const pathFile = join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!override && relative === null) {
    return { ok: false, reason: 'no Electron binary in node_modules/electron/dist', installable: true };
  }
  const binary = override ? join(override, relative ?? 'electron') : join(dir, 'dist', relative ?? 'electron');
  if (!existsSync(binary)) {
    return { ok: false, reason: `no binary at ${binary}`, installable: !override };
  }
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    return { ok: false, reason: `${binary} is not executable`, installable: false };
  }
  return { ok: true, path: binary };
}

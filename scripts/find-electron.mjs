// Finds the Electron binary that `require('electron')` would run, WITHOUT requiring it: electron@45's
// index.js downloads the binary on first require when it is missing, which here means a long wait on
// github.com before failing. Used by scripts/start.mjs and the Electron smoke test.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} root the repository root
 * @returns {{ ok: true, path: string } | { ok: false, reason: string }}
 */
export function findElectronBinary(root) {
  const dir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(dir, 'package.json'))) {
    return { ok: false, reason: 'the electron package is not installed' };
  }
  const pathFile = join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!override && relative === null) {
    return { ok: false, reason: 'no Electron binary in node_modules/electron/dist' };
  }
  const binary = override ? join(override, relative ?? 'electron') : join(dir, 'dist', relative ?? 'electron');
  if (!existsSync(binary)) {
    return { ok: false, reason: `no binary at ${binary}` };
  }
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    return { ok: false, reason: `${binary} is not executable` };
  }
  return { ok: true, path: binary };
}

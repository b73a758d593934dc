/**
 * Builds the app once for the journeys, as `npm start` does (`node scripts/build.mjs` → out/): the
 * journeys run the built `out/main/panel.js`, never the sources.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup(): void {
  const root = join(import.meta.dirname, '..', '..');
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) {
    throw new Error(`node scripts/build.mjs failed (${built.status ?? built.signal}):\n${built.stdout}${built.stderr}`);
  }
}

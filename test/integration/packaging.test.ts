/**
 * The packaging check from issue 5: electron-builder packs `--linux dir` against a stub Electron, and the
 * asar must hold the built desktop app (main, preload, renderer) and production dependencies only — no
 * tests, no TypeScript sources, no source maps, no devDependencies, and not the panel-only entry, which
 * carries its own copy of its dependencies and runs only from the repository. The assertions live in
 * scripts/check-packaging.mjs so CI and developers run the same check.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

it('packs the built app with production dependencies only', { timeout: 180_000 }, async () => {
  const child = spawn(process.execPath, [join(root, 'scripts', 'check-packaging.mjs'), '--build-if-missing'], {
    cwd: root,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(output).toMatch(/packaging check: ok \(\d+ entries; \d+ production modules; 4 required files\)/);
  expect(code).toBe(0);
});

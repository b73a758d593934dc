// What each part of out/ was built from, so `npm start` and `npm run build` rebuild only a part whose
// inputs changed (scripts/build.mjs). A part is one bundler run: the panel pages (Vite) or the main-process
// bundles (esbuild). Its stamp, node_modules/.cache/greenroom/build/<part>.json, holds a digest of its inputs
// and one of its output. Not in out/: electron-builder packs out/ into the app, and a stamp names paths on the
// developer's machine.
//
// The inputs are what the bundler reported it read, widened so that a new file is noticed too: every file
// of each top-level folder it read from (renderer/, shared/, electron/, sandbox/…), each package file it
// read from node_modules, and the build's configuration (SHARED_CONFIG, the lockfile among them, and the
// part's own: vite.config.ts and svelte.config.js for the pages).
// Digests are of file contents, not modification times, so switching git branches back and forth does not
// rebuild, and an edit that is undone is no change. The output digest catches anything else that wrote
// into out/ (a test's own build, a hand edit): the part is then rebuilt rather than trusted.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Files that shape a part's bundles although no bundler lists them as read, besides each part's own. */
export const SHARED_CONFIG = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
  'scripts/build.mjs',
  'scripts/build-stamp.mjs',
];

/** Bumped when the stamp's meaning changes, so an older stamp is never trusted. */
const STAMP_VERSION = 1;

/** @typedef {{ dirs: string[], files: string[] }} Inputs paths relative to the root, or absolute outside it */
/** @typedef {{ version: number, inputs: Inputs, outputs: string[], inputDigest: string, outputDigest: string }} Stamp */

/** @param {string} root */
function stampDir(root) {
  return join(root, 'node_modules', '.cache', 'greenroom', 'build');
}

/** @param {string} root @param {string} part */
export function stampPath(root, part) {
  return join(stampDir(root), `${part}.json`);
}

/**
 * The inputs to watch, from the paths a bundler read and the part's own configuration files.
 * @param {string} root
 * @param {Iterable<string>} readPaths absolute, or relative to the root
 * @param {string[]} [configFiles] relative to the root
 * @returns {Inputs}
 */
export function inputsFrom(root, readPaths, configFiles = []) {
  const dirs = new Set();
  const files = new Set([...SHARED_CONFIG, ...configFiles]);
  for (const path of readPaths) {
    const full = resolve(root, path);
    const rel = relative(root, full);
    const outside = rel.startsWith(`..${sep}`) || isAbsolute(rel);
    const [top] = rel.split(sep);
    if (outside || top === 'node_modules') {
      files.add(outside ? full : rel);
    } else if (rel.includes(sep)) {
      dirs.add(top);
    } else {
      files.add(rel);
    }
  }
  return { dirs: [...dirs].sort(), files: [...files].sort() };
}

/** Every file under `dir`, relative to `root`, sorted; build output and dependencies left out. */
function listFiles(root, dir) {
  /** @type {string[]} */
  const found = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = join(rel, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'out') {
          walk(child);
        }
      } else {
        found.push(child);
      }
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * @param {string} root
 * @param {string[]} paths
 * @param {(path: string, mtimeMs: number) => void} [seen]
 */
function digestFiles(root, paths, seen) {
  const hash = createHash('sha256');
  for (const path of paths) {
    const full = isAbsolute(path) ? path : join(root, path);
    hash.update(`${path}\0`);
    try {
      hash.update(createHash('sha256').update(readFileSync(full)).digest());
      seen?.(path, statSync(full).mtimeMs);
    } catch {
      hash.update('missing');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * A digest of the inputs' contents; `seen` is told each file read and its modification time.
 * @param {string} root
 * @param {Inputs} inputs
 * @param {(path: string, mtimeMs: number) => void} [seen]
 */
export function digestInputs(root, inputs, seen) {
  const paths = [...inputs.dirs.flatMap((dir) => listFiles(root, dir)), ...inputs.files];
  return digestFiles(root, paths, seen);
}

/** @param {string} root @param {string[]} outputs folders under the root */
export function digestOutputs(root, outputs) {
  return digestFiles(
    root,
    outputs.flatMap((dir) => listFiles(root, dir)),
  );
}

/** @param {string} root @param {string} part @returns {Stamp | null} */
export function readStamp(root, part) {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(root, part), 'utf8'));
    const valid =
      stamp?.version === STAMP_VERSION &&
      Array.isArray(stamp.inputs?.dirs) &&
      Array.isArray(stamp.inputs?.files) &&
      Array.isArray(stamp.outputs) &&
      typeof stamp.inputDigest === 'string' &&
      typeof stamp.outputDigest === 'string';
    return valid ? stamp : null;
  } catch {
    return null;
  }
}

/**
 * Whether `part` in out/ is what its current inputs would build.
 * @param {string} root
 * @param {string} part
 */
export function isUpToDate(root, part) {
  const stamp = readStamp(root, part);
  return (
    stamp !== null &&
    digestOutputs(root, stamp.outputs) === stamp.outputDigest &&
    digestInputs(root, stamp.inputs) === stamp.inputDigest
  );
}

/** Forgets `part`'s stamp: done before it is rebuilt, so a build that fails half-way is not trusted. */
export function clearStamp(root, part) {
  rmSync(stampPath(root, part), { force: true });
}

/**
 * Stamps `part` after a build that started at `startedAt`. An input changed since then may not be in the
 * output, so no stamp is written and the next build redoes the part.
 * @param {string} root
 * @param {string} part
 * @param {{ inputs: Inputs, outputs: string[], startedAt: number }} built
 * @returns {boolean} whether the stamp was written
 */
export function writeStamp(root, part, { inputs, outputs, startedAt }) {
  let changedDuringBuild = false;
  const inputDigest = digestInputs(root, inputs, (_path, mtimeMs) => {
    changedDuringBuild ||= mtimeMs >= startedAt;
  });
  if (changedDuringBuild) {
    return false;
  }
  /** @type {Stamp} */
  const stamp = { version: STAMP_VERSION, inputs, outputs, inputDigest, outputDigest: digestOutputs(root, outputs) };
  const path = stampPath(root, part);
  mkdirSync(stampDir(root), { recursive: true });
  // Written aside and renamed, so a build running beside this one never reads half a stamp.
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(stamp)}\n`);
  renameSync(temp, path);
  return true;
}

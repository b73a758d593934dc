#!/usr/bin/env node
// `npm run build`: the renderer with Vite (→ out/renderer), then esbuild bundles for the Electron main
// process (→ out/main/index.js, ESM), the panel-only entry (→ out/main/panel.js, ESM) and the preload
// (→ out/preload/index.cjs: one CommonJS file, because sandboxed preloads cannot load ES modules).
// npm dependencies stay external in the desktop bundles: electron-builder packs the production ones into
// the asar, so bundling them too would ship them twice. The panel-only entry, which runs from the repository
// and is not packed, bundles its dependencies: Node then reads one file instead of resolving and loading
// several hundred, which took 200 ms or more off the panel's start-up here (docs/decisions.md, "The panel-only
// entry carries its dependencies"). The preload bundles everything it uses (a sandboxed preload can require
// only a few Electron modules): the plain channel lists, never the schemas.
//
// Each of the two parts (the pages, built by Vite; the main-process bundles, by esbuild) is rebuilt only when
// what it was built from changed (scripts/build-stamp.mjs), so a second `npm start` builds nothing and says
// so in one line. `--force` rebuilds both (../docs/decisions.md#a-quiet-and-incremental-npm-start).
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { clearStamp, inputsFrom, isUpToDate, writeStamp } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The esbuild options of the three main-process bundles, shared with `npm run dev` (scripts/dev.mjs), which
 * rebuilds them on change.
 */
export function mainTargets() {
  const common = {
    absWorkingDir: root,
    bundle: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  };
  // Electron 45 runs Node 24; the panel-only entry runs on the Node that runs `npm start`, and in this
  // project's tests on Node 20 as well (../docs/decisions.md#a-quiet-and-incremental-npm-start).
  const node = { ...common, platform: 'node', target: 'node20', format: 'esm', packages: 'external' };
  return {
    main: { ...node, entryPoints: ['electron/main.ts'], outfile: 'out/main/index.js' },
    panel: {
      ...node,
      packages: undefined,
      entryPoints: ['electron/panel-main.ts'],
      outfile: 'out/main/panel.js',
      // ws's optional native speed-ups: it runs without them, and require() of a missing one is caught.
      external: ['bufferutil', 'utf-8-validate'],
      // The CommonJS dependencies (undici, ws, ajv) call require() for Node's own modules, which an ES module
      // bundle does not have of itself.
      banner: {
        js: "import { createRequire as greenroomRequire } from 'node:module'; const require = greenroomRequire(import.meta.url);",
      },
    },
    preload: {
      ...common,
      entryPoints: ['electron/preload/index.ts'],
      outfile: 'out/preload/index.cjs',
      platform: 'browser',
      target: 'chrome120',
      format: 'cjs',
      external: ['electron'],
      // The preload is parsed on every window load.
      minify: true,
    },
  };
}

/**
 * The panel and overlay pages (→ out/renderer), always the production build. Vite decides production from
 * NODE_ENV, not from `mode`, and a caller under Vitest has NODE_ENV=test: the e2e tests, the journeys and the
 * benchmarks then ran Svelte's development build (argument checks and component metadata on every row), which
 * no streamer runs and which cost the panel about a sixth of its script time in a raid (docs/decisions.md,
 * "Every build of the panel is a production build"). vite.config.ts keeps Vitest's own resolve conditions
 * out of builds for the same reason.
 */
export async function buildRenderer(outDir = join(root, 'out', 'renderer')) {
  const { build: viteBuild } = await import('vite');
  const callerNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  /** @type {string[]} */
  const read = [];
  /** @type {import('vite').Plugin} */
  const recordInputs = {
    name: 'greenroom-build-inputs',
    buildEnd() {
      // Module ids are file paths, with a query for a part of one (a component's styles) or a \0 prefix
      // for a module no file holds.
      for (const id of this.getModuleIds()) {
        if (!id.startsWith('\0')) {
          read.push(id.split('?')[0]);
        }
      }
    },
  };
  try {
    // The root is given explicitly: under Vitest the shared config's root is the repository, not renderer/.
    await viteBuild({
      configFile: join(root, 'vite.config.ts'),
      root: join(root, 'renderer'),
      logLevel: 'warn',
      mode: 'production',
      build: { outDir },
      plugins: [recordInputs],
    });
    return read;
  } finally {
    if (callerNodeEnv === undefined) {
      delete process.env.NODE_ENV;
    } else {
      process.env.NODE_ENV = callerNodeEnv;
    }
  }
}

/** The two parts of out/: what each writes and how it is built; build() resolves with the paths it read. */
const PARTS = {
  renderer: {
    label: 'the panel pages (out/renderer)',
    outputs: ['out/renderer'],
    config: ['vite.config.ts', 'svelte.config.js'],
    build: () => buildRenderer(),
  },
  main: {
    label: 'the main process (out/main, out/preload)',
    outputs: ['out/main', 'out/preload'],
    config: [],
    async build() {
      const { build: esbuild } = await import('esbuild');
      rmSync(join(root, 'out', 'main'), { recursive: true, force: true });
      rmSync(join(root, 'out', 'preload'), { recursive: true, force: true });
      const results = await Promise.all(
        Object.values(mainTargets()).map((target) => esbuild({ ...target, metafile: true })),
      );
      return results.flatMap((result) => Object.keys(result.metafile?.inputs ?? {}));
    },
  },
};

/**
 * Builds into out/ each part whose inputs changed since it was last built, or every part with `force`.
 * @param {{ force?: boolean }} [options]
 * @returns {Promise<{ built: string[], upToDate: string[] }>} the labels of the parts built and left alone
 */
export async function buildAll({ force = false } = {}) {
  const built = [];
  const upToDate = [];
  for (const [part, { label, outputs, config, build }] of Object.entries(PARTS)) {
    if (!force && isUpToDate(root, part)) {
      upToDate.push(label);
      continue;
    }
    clearStamp(root, part);
    const startedAt = Date.now();
    const read = await build();
    writeStamp(root, part, { inputs: inputsFrom(root, read, config), outputs, startedAt });
    built.push(label);
  }
  return { built, upToDate };
}

/** The one line a build prints. @param {{ built: string[], upToDate: string[] }} result @param {number} ms */
export function describeBuild({ built, upToDate }, ms) {
  if (built.length === 0) {
    return 'Nothing to build: out/ already matches the sources (`npm run build -- --force` rebuilds it).';
  }
  const took = `${(ms / 1000).toFixed(1)} s`;
  if (upToDate.length === 0) {
    return `Built out/ in ${took}.`;
  }
  return `Built ${built.join(' and ')} in ${took}; ${upToDate.join(' and ')} had not changed.`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  const result = await buildAll({ force: process.argv.includes('--force') });
  console.log(describeBuild(result, Date.now() - started));
}

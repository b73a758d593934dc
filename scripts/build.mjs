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
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  // Electron 45 runs Node 24; the panel-only entry runs on the system Node (20.19+).
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
  try {
    // The root is given explicitly: under Vitest the shared config's root is the repository, not renderer/.
    await viteBuild({
      configFile: join(root, 'vite.config.ts'),
      root: join(root, 'renderer'),
      logLevel: 'warn',
      mode: 'production',
      build: { outDir },
    });
  } finally {
    if (callerNodeEnv === undefined) {
      delete process.env.NODE_ENV;
    } else {
      process.env.NODE_ENV = callerNodeEnv;
    }
  }
}

/** Builds everything into out/. */
export async function buildAll() {
  const { build: esbuild } = await import('esbuild');
  rmSync(join(root, 'out', 'main'), { recursive: true, force: true });
  rmSync(join(root, 'out', 'preload'), { recursive: true, force: true });
  await buildRenderer();
  const targets = mainTargets();
  await Promise.all([esbuild(targets.main), esbuild(targets.panel), esbuild(targets.preload)]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  await buildAll();
  console.log(`Built out/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

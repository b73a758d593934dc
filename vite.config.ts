/**
 * One config for the renderer build (Vite, root `renderer/`, output `out/renderer/`) and for the test
 * projects (Vitest, root at the repository). Vitest writes a JSON report per Node major so `.ci/run` can
 * print one closing line across the Node 20 and Node 24 runs.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const here = dirname(fileURLToPath(import.meta.url));
const nodeMajor = process.versions.node.split('.')[0];

/**
 * `npm run dev` only (scripts/dev.mjs): Vite's dev client injects each component's CSS as a <style> element,
 * which the panel's CSP (index.html, no inline styles) would block. The served page allows inline styles;
 * the built panel keeps the strict policy unchanged.
 */
const devStyles: Plugin = {
  name: 'greenroom-dev-inline-styles',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
};

/**
 * Rolldown prints a breakdown of where build time went whenever plugins take most of a build over 3 s,
 * which a busy or slow machine reaches on every build. `npm start` prints what a streamer needs and no
 * more (./docs/decisions.md#a-quiet-and-incremental-npm-start); `node --cpu-prof` profiles a slow build.
 */
const noTimingReports = { bundlerTimings: false };

export default defineConfig(({ command }) => ({
  root: process.env.VITEST ? here : resolve(here, 'renderer'),
  base: './',
  plugins: [svelte(), devStyles],
  // The renderer unit tests load Svelte's browser runtime under Node. Only them: a build made under Vitest
  // (the e2e and journey setups) must resolve packages as `npm run build` does, or it ships Svelte's runtime
  // with its development checks compiled in.
  resolve: process.env.VITEST && command === 'serve' ? { conditions: ['browser'] } : undefined,
  build: {
    outDir: resolve(here, 'out/renderer'),
    emptyOutDir: true,
    sourcemap: false,
    // Vite warns past 500 kB, a rule for pages fetched over the internet; these load from the disk or the
    // loopback, and how fast the panel starts is measured by `npm run bench` (panel-ready-ms). The higher
    // limit still flags a bundle that suddenly triples (./docs/decisions.md#a-quiet-and-incremental-npm-start).
    chunkSizeWarningLimit: 1500,
    // Fonts stay files: the overlay page's policy allows fonts from itself only (docs/overlays.md#fonts), and
    // Vite would inline the small ones as `data:` URLs, which that policy refuses.
    assetsInlineLimit: (file) => (/\.woff2?$/.test(file) ? false : undefined),
    rolldownOptions: {
      // The panel, and the OBS overlay page (renderer/overlay.html, docs/overlays.md).
      input: { index: resolve(here, 'renderer/index.html'), overlay: resolve(here, 'renderer/overlay.html') },
      checks: noTimingReports,
    },
  },
  optimizeDeps: { rolldownOptions: { checks: noTimingReports } },
  test: {
    reporters: ['default', ['json', { outputFile: resolve(here, `.reports/vitest-node${nodeMajor}.json`) }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          exclude: ['test/unit/renderer/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['test/integration/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: { name: 'renderer', environment: 'happy-dom', include: ['test/unit/renderer/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          // `*.test.ts`: the tests against Debian's real OBS (test/e2e/obs/), which need no panel but run
          // once, on one Node, like the rest of this project (docs/obs.md#testing-against-a-real-obs).
          include: ['test/e2e/**/*.spec.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Whole-app journeys: the built app in its own process, driven in Chromium (test/journeys/).
          name: 'journeys',
          environment: 'node',
          include: ['test/journeys/**/*.spec.ts'],
          globalSetup: ['test/journeys/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
}));

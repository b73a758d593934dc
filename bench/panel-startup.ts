/**
 * The start-up and footprint figures, measured on the built app as `npm start` runs it without
 * Electron (out/main/panel.js, embedded sandbox, tunnel off). A later round tightened `panel-ready-ms` to 1 s:
 * - `panel-ready-ms`: process start to the panel's first interactive frame (the sign-in button usable, or
 *   on a first run the setup guide that opens over it) in headless Chromium; the browser is started
 *   beforehand, as OBS would already be running. Median of 3 restarts on one data dir, as a streamer
 *   starts it day to day; `panel-first-start-ms` is the very first start (an empty data dir: settings,
 *   panel token and the sandbox's signing key are made then).
 * - `idle-rss-mb`: the main-side process's resident memory after 60 s idle, signed in, panel connected.
 */
import { readFileSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../test/e2e/harness';
import { ensureBuilt, startAppProcess } from './lib/app-process';
import { connectPanel, signInOverPanel } from './lib/panel-client';
import { round, rssMb } from './lib/stats';
import { measuredFigures } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';
import { chromiumPath } from './lib/cdp-page';
import { makeTempDir } from './lib/started';

const IDLE_MS = Number(process.env.GREENROOM_BENCH_IDLE_MS ?? 60_000);

/** The first frame a streamer can act on: the sign-in button, or the setup guide a first run opens. */
function firstInteractive(page: Page) {
  return page
    .getByRole('button', { name: 'Sign in with Kick' })
    .or(page.getByRole('dialog', { name: 'Set up Greenroom' }))
    .first();
}

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [
  { name: 'panel-ready-ms', unit: 'ms', target: { op: '<=', value: 1000 } },
  { name: 'panel-first-start-ms', unit: 'ms', target: { op: '<=', value: 2500 } },
  { name: 'idle-rss-mb', unit: 'MB', target: { op: '<=', value: 100 } },
];

export async function run(): Promise<BenchResult[]> {
  ensureBuilt((line) => console.error(`panel-startup: ${line}`));
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  try {
    const readies: number[] = [];
    // Empty, as on a first install: the app makes its settings, panel token and signing key.
    const dataDir = makeTempDir('greenroom-bench-');
    for (let i = 0; i < 4; i++) {
      const page = await browser.newPage();
      const t0 = performance.now();
      const started = await startAppProcess({}, dataDir);
      await page.goto(started.panelUrl);
      await firstInteractive(page).waitFor({ state: 'visible' });
      readies.push(performance.now() - t0);
      await page.close();
      await started.stop(i < 3);
    }
    const firstStart = readies.shift()!;
    readies.sort((a, b) => a - b);

    // Idle: signed in (as a streamer is on any day after the first), the panel open in the browser.
    const started = await startAppProcess();
    const panel = await connectPanel(started.panelUrl);
    await signInOverPanel(panel, async () => (await started.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
    await panel.close();
    const page = await browser.newPage();
    await page.goto(started.panelUrl);
    await page.getByRole('log', { name: 'Chat messages' }).waitFor({ state: 'visible' });
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const rss = rssMb(started.child.pid!, (path) => readFileSync(path, 'utf8'));
    await page.close();
    await started.stop();
    return measuredFigures(figures, {
      'panel-ready-ms': Math.round(readies[1]!),
      'panel-first-start-ms': Math.round(firstStart),
      'idle-rss-mb': round(rss, 1),
    });
  } finally {
    await browser.close();
  }
}

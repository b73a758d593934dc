/**
 * The app's heap settings (scripts/app-node-flags.mjs) hold on the Node that runs the test (20 or 24): a
 * process started with them keeps its young generation at 16 MB however much of what it allocates outlives a
 * young collection, where Node 24 on a large machine lets it grow to 128 MB
 * (docs/decisions.md#where-the-apps-memory-goes-in-a-chat-storm); and on Node 24, the app's, V8 leaves the old
 * generation a fixed room before each full collection instead of sizing it from its speed
 * (docs/decisions.md#the-old-generations-growing-factor-is-fixed).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { APP_NODE_FLAGS, appNodeEnv, electronJsFlags, hasAppNodeEnv } from '../../../scripts/app-node-flags.mjs';

/** Allocates as a storm does, much of it kept for a while, and prints the young generation's largest size. */
const STORM = `
const v8 = require('node:v8');
let kept = [];
let largest = 0;
for (let i = 0; i < 2e6; i++) {
  kept.push({ id: 'line-' + i, parts: [i, i + 1], sender: { name: 'viewer' + (i % 1000) } });
  if (kept.length > 20000) kept = [];
  if (i % 10000 === 0) {
    const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    largest = Math.max(largest, young.space_size);
  }
}
console.log(largest);
`;

/** Runs `script` (one that prints a size in bytes) in a Node started with `flags`, and reads the size in MB. */
const printedMb = (script: string, flags: readonly string[]): number =>
  Number(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' })) / 1_048_576;

/**
 * Keeps the last 20,000 lines, each outliving a few young collections before it goes, as the chat kept in main
 * does in a storm, and prints the old generation's largest size once the process has run a while: what is alive
 * plus the garbage V8 lets pile up before its next full collection. Not read during the first third: V8 places the
 * process's first full collection from its start-up sizing, which the flags do not set (one run in about 50 read
 * 55–85 MB there, with the flags or without).
 */
const KEPT_LINES = `
const v8 = require('node:v8');
const ring = new Array(20000);
let largest = 0;
for (let i = 0; i < 3e6; i++) {
  ring[i % ring.length] = { id: 'line-' + i, text: 'hello there ' + i, parts: [i, i + 1], sender: { name: 'viewer' + (i % 1000) } };
  if (i >= 1e6 && i % 5000 === 0) {
    const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
    largest = Math.max(largest, old.space_size);
  }
}
console.log(largest);
`;

/** The app's main process runs on Node 24 (Electron 45's, and the launcher's); Node 20 sizes its heap otherwise. */
const onAppNode = Number(process.versions.node.split('.')[0]) >= 24;

describe('the app’s heap settings', () => {
  // 16 MB, read as up to 16.75 on Node 24 (V8 counts a page or so more); Node 20 alone reaches 32, Node 24 128.
  it('keep the young generation at 16 MB under a storm’s allocation', { timeout: 60_000 }, () => {
    expect(printedMb(STORM, APP_NODE_FLAGS)).toBeLessThanOrEqual(20);
  });

  // 25–35 MB with the app's flags on Node 24 (290 runs, idle and loaded), 44–60 MB with the young generation's cap
  // alone (45 runs): V8 sizing the room from its speed left up to four times what is alive.
  it.skipIf(!onAppNode)(
    'give the old generation a fixed room before each full collection (Node 24, the app’s)',
    { timeout: 60_000 },
    () => {
      expect(printedMb(KEPT_LINES, APP_NODE_FLAGS)).toBeLessThanOrEqual(40);
    },
  );

  it('are V8 flags this Node accepts (a flag it does not know stops the app at start)', () => {
    expect(() => execFileSync(process.execPath, [...APP_NODE_FLAGS, '-e', '0'], { stdio: 'pipe' })).not.toThrow();
    expect(() => execFileSync(process.execPath, ['--max-semi-space-sise=8', '-e', '0'], { stdio: 'pipe' })).toThrow();
  });

  it('reach Electron’s main process as one --js-flags switch', () => {
    expect(electronJsFlags()).toBe(`--js-flags=${APP_NODE_FLAGS.join(' ')}`);
    expect(electronJsFlags()).toBe('--js-flags=--max-semi-space-size=8 --heap-growing-percent=20');
  });

  it('set one malloc arena in the environment the panel server starts with, unless the caller set their own', () => {
    const env = appNodeEnv({ PATH: '/bin' });
    expect(env).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '1' });
    expect(hasAppNodeEnv(env)).toBe(true);
    // A maintainer measuring glibc's default again: their value is the one started with.
    expect(appNodeEnv({ PATH: '/bin', MALLOC_ARENA_MAX: '8' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '8' });
    expect(hasAppNodeEnv({ MALLOC_ARENA_MAX: '8' })).toBe(true);
    expect(hasAppNodeEnv({ PATH: '/bin' })).toBe(false);
  });
});

/**
 * The app's heap settings (scripts/app-node-flags.mjs) hold on the Node that runs the test (20 or 24): a
 * process started with them keeps its young generation at 16 MB however much of what it allocates outlives a
 * young collection, where Node 24 on a large machine lets it grow to 128 MB
 * (docs/decisions.md#where-the-apps-memory-goes-in-a-chat-storm).
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

const youngMb = (flags: readonly string[]): number =>
  Number(execFileSync(process.execPath, [...flags, '-e', STORM], { encoding: 'utf8' })) / 1_048_576;

describe('the app’s heap settings', () => {
  // 16 MB, read as up to 16.75 on Node 24 (V8 counts a page or so more); Node 20 alone reaches 32, Node 24 128.
  it('keep the young generation at 16 MB under a storm’s allocation', { timeout: 60_000 }, () => {
    expect(youngMb(APP_NODE_FLAGS)).toBeLessThanOrEqual(20);
  });

  it('are V8 flags this Node accepts (a flag it does not know stops the app at start)', () => {
    expect(() => execFileSync(process.execPath, [...APP_NODE_FLAGS, '-e', '0'], { stdio: 'pipe' })).not.toThrow();
    expect(() => execFileSync(process.execPath, ['--max-semi-space-sise=8', '-e', '0'], { stdio: 'pipe' })).toThrow();
  });

  it('reach Electron’s main process as one --js-flags switch', () => {
    expect(electronJsFlags()).toBe(`--js-flags=${APP_NODE_FLAGS.join(' ')}`);
    expect(electronJsFlags()).toBe('--js-flags=--max-semi-space-size=8');
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

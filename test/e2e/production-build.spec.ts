/**
 * The panel the e2e tests, the journeys and the benchmarks drive is the production build a streamer runs.
 * These tests run under Vitest (NODE_ENV=test), the one setting in which Vite used to build Svelte's
 * development output: component metadata and argument checks on every row, about a fifth of the panel's
 * script time in a raid (docs/decisions.md, "Every build of the panel is a production build").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const assets = join(import.meta.dirname, '..', '..', 'out', 'renderer', 'assets');

/** Text only Svelte's development output carries (its compiler's `add_svelte_meta` and component checks). */
const DEV_ONLY = ['componentTag', 'new.target'];

describe('the built panel (global setup, under Vitest)', () => {
  it('is Svelte’s production output', () => {
    const scripts = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const text = readFileSync(join(assets, name), 'utf8');
      for (const marker of DEV_ONLY) {
        expect(text.includes(marker), `${name} contains ${marker}`).toBe(false);
      }
    }
  });
});

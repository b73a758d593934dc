/**
 * The panel the e2e tests, the journeys and the benchmarks drive is the build a streamer runs. These tests
 * run under Vitest (NODE_ENV=test, VITEST set), where Vite once built Svelte's development output: component
 * metadata and argument checks on every row, about a sixth of the panel’s script time in a raid
 * (docs/decisions.md, "Every build of the panel is a production build").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const assets = join(root, 'out', 'renderer', 'assets');

/** Text only Svelte's development output carries (its compiler's `add_svelte_meta` and component checks). */
const DEV_ONLY = ['componentTag', 'new.target'];

describe('the built panel (global setup, under Vitest)', () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'greenroom-renderer-'));
  afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

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

  it('is the same build as `npm run build` makes outside Vitest', () => {
    // Vite names each file by a hash of its content, so the same names mean the same bytes.
    const env = { ...process.env };
    delete env.VITEST;
    delete env.NODE_ENV;
    const script = `import(${JSON.stringify(join(root, 'scripts', 'build.mjs'))}).then((m) => m.buildRenderer(${JSON.stringify(elsewhere)}))`;
    const built = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env,
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    expect(readdirSync(join(elsewhere, 'assets')).sort()).toEqual(readdirSync(assets).sort());
  });
});

/**
 * scripts/build-stamp.mjs: what a part of out/ counts as built from, and when its stamp is trusted. The
 * builds themselves run in test/integration/launch/incremental-build.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SHARED_CONFIG,
  digestInputs,
  inputsFrom,
  isUpToDate,
  readStamp,
  stampPath,
  writeStamp,
} from '../../../scripts/build-stamp.mjs';

let root = '';

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'greenroom-build-stamp-'));
  write('renderer/src/main.ts', 'import "./app";\n');
  write('renderer/src/app.ts', 'export {};\n');
  write('shared/limits.ts', 'export const max = 1;\n');
  write('out/renderer/index.html', '<p>built</p>\n');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('inputsFrom', () => {
  it('widens what was read to its top-level folders, keeps package files one by one, and adds the configuration', () => {
    const inputs = inputsFrom(
      root,
      [join(root, 'renderer/src/main.ts'), 'shared/limits.ts', 'node_modules/svelte/src/index.js', '/elsewhere/x.js'],
      ['vite.config.ts'],
    );
    expect(inputs.dirs).toEqual(['renderer', 'shared']);
    expect(inputs.files).toEqual(
      [...SHARED_CONFIG, 'vite.config.ts', 'node_modules/svelte/src/index.js', '/elsewhere/x.js'].sort(),
    );
  });

  it('takes a relative path that leaves the root as the absolute path it names', () => {
    const inputs = inputsFrom(join(root, 'renderer'), ['../shared/limits.ts']);
    expect(inputs.files).toContain(join(root, 'shared/limits.ts'));
    expect(inputs.dirs).toEqual([]);
  });
});

describe('stamps', () => {
  const outputs = ['out/renderer'];
  const inputs = (): ReturnType<typeof inputsFrom> => inputsFrom(root, ['renderer/src/main.ts', 'shared/limits.ts']);

  it('are trusted while inputs and output are as they were, down to a new or removed file', () => {
    expect(isUpToDate(root, 'renderer')).toBe(false);
    expect(writeStamp(root, 'renderer', { inputs: inputs(), outputs, startedAt: Date.now() + 60_000 })).toBe(true);
    expect(isUpToDate(root, 'renderer')).toBe(true);

    write('renderer/src/unused.ts', 'export {};\n');
    expect(isUpToDate(root, 'renderer')).toBe(false);
    rmSync(join(root, 'renderer/src/unused.ts'));
    expect(isUpToDate(root, 'renderer')).toBe(true);

    write('out/renderer/index.html', '<p>someone else built this</p>\n');
    expect(isUpToDate(root, 'renderer')).toBe(false);
  });

  it('notice a changed configuration file, and one that appears', () => {
    writeStamp(root, 'renderer', { inputs: inputs(), outputs, startedAt: Date.now() + 60_000 });
    write('package-lock.json', '{}\n');
    expect(isUpToDate(root, 'renderer')).toBe(false);
  });

  it('are not written when an input changed while the build ran', () => {
    // Every file here was written after this start: as if each had been edited during the build.
    expect(writeStamp(root, 'renderer', { inputs: inputs(), outputs, startedAt: 0 })).toBe(false);
    expect(readStamp(root, 'renderer')).toBeNull();
  });

  it('are not trusted when damaged or from an older format', () => {
    writeStamp(root, 'renderer', { inputs: inputs(), outputs, startedAt: Date.now() + 60_000 });
    writeFileSync(stampPath(root, 'renderer'), '{"version":0}');
    expect(isUpToDate(root, 'renderer')).toBe(false);
    writeFileSync(stampPath(root, 'renderer'), 'not json');
    expect(isUpToDate(root, 'renderer')).toBe(false);
  });

  it('digest contents, not modification times', () => {
    const before = digestInputs(root, inputs());
    write('shared/limits.ts', 'export const max = 1;\n');
    expect(digestInputs(root, inputs())).toBe(before);
    write('shared/limits.ts', 'export const max = 2;\n');
    expect(digestInputs(root, inputs())).not.toBe(before);
  });
});

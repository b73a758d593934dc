/**
 * The commit rules `npm run check` enforces (docs/code-style.md#commits), on real git repositories made in a temp
 * folder: the script as `npm run check` runs it, its exit code and its lines.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkCommits, subjectProblem } from '../../../scripts/check-commits.mjs';

const SCRIPT = join(import.meta.dirname, '..', '..', '..', 'scripts', 'check-commits.mjs');
let repo: string;
let n = 0;

const git = (...args: string[]): string =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    },
  });

function commit(subject: string, body = 'Why: a reason.'): void {
  writeFileSync(join(repo, 'file.txt'), String(++n));
  git('add', 'file.txt');
  git('commit', '-q', '-m', subject, ...(body ? ['-m', body] : []));
}

/** The script run in `repo`'s copy of itself, as `npm run check` runs it there. */
function runCheck(): { status: number | null; out: string } {
  const copy = join(repo, 'scripts');
  mkdirSync(copy, { recursive: true });
  copyFileSync(SCRIPT, join(copy, 'check-commits.mjs'));
  const result = spawnSync(process.execPath, [join(copy, 'check-commits.mjs')], { cwd: repo, encoding: 'utf8' });
  return { status: result.status, out: result.stdout };
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'greenroom-commits-'));
  git('init', '-q');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('the commit check', { timeout: 60_000 }, () => {
  it('passes subjects of up to 72 characters in the imperative, with a body', () => {
    commit('Keep a stream\u2019s last second of socket chat in its recap');
    commit('x'.repeat(72).replace(/^x/, 'A'));
    const { status, out } = runCheck();
    expect(status).toBe(0);
    expect(out).toContain('commits: 2 checked');
  });

  it('fails on a subject over 72 characters, naming the commit and the limit', () => {
    commit('Add a thing');
    const long = `Add ${'a very long subject '.repeat(4)}`.trim();
    expect(long.length).toBeGreaterThan(72);
    commit(long);
    const { status, out } = runCheck();
    expect(status).toBe(1);
    expect(out).toMatch(
      new RegExp(`error: [0-9a-f]+ ${long}\\n {4}the subject is ${long.length} characters; at most 72`),
    );
  });

  it('fails on a subject not in the imperative, and warns of a commit without a body', () => {
    commit('Fixed the recap');
    commit('Wrap the notes', '');
    const { status, out } = runCheck();
    expect(status).toBe(1);
    expect(out).toContain('the subject starts with "fixed"; write it in the imperative');
    expect(out).toMatch(/warning: [0-9a-f]+ Wrap the notes\n {4}no body/);
  });

  it('checks only the commits since the last tag', () => {
    commit('Fixed before the rule');
    git('tag', 'v0.1.0');
    commit('Add after the tag');
    expect(checkCommits(repo)).toMatchObject({ checked: 1, problems: [] });
  });

  it('checks the last 50 commits at most', () => {
    commit('Fixed long ago');
    for (let i = 0; i < 50; i++) {
      commit(`Add step ${i}`);
    }
    expect(checkCommits(repo)).toMatchObject({ checked: 50, problems: [] });
  });

  it('says there is nothing to check outside a git checkout, and passes', () => {
    rmSync(join(repo, '.git'), { recursive: true, force: true });
    const { status, out } = runCheck();
    expect(status).toBe(0);
    expect(out).toContain('not a git checkout');
  });

  it('tells the imperative from a past tense, a third person or a gerund by the first word', () => {
    expect(subjectProblem('Embed the overlay key')).toBeNull();
    expect(subjectProblem('Process a raid once')).toBeNull();
    expect(subjectProblem('Bring OBS into the room')).toBeNull();
    expect(subjectProblem('Adds a figure')).toMatch(/imperative/);
    expect(subjectProblem('Adding a figure')).toMatch(/imperative/);
    expect(subjectProblem('Journeys for the mod log')).toMatch(/imperative/);
    expect(subjectProblem('')).toBe('the subject is empty');
  });
});

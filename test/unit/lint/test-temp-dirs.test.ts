/**
 * A test file that makes a temp dir removes what it made, so a run of the suite leaves nothing in the system temp
 * dir: it uses `tempDir` (test/helpers/temp-dir.ts), which removes its dirs after the file's last test, or removes
 * its own. The check is coarse on purpose: a file that makes dirs with `mkdtemp` and calls no removal at all fails;
 * whether each removal covers each dir is for review to see. Five files once made a dir per test with `mkdtempSync`
 * and never removed one; a few hundred runs had left over a thousand `greenroom-*` dirs behind.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../helpers/import-graph';

const root = join(import.meta.dirname, '..', '..', '..');

/** Whether a file's source makes temp dirs of its own and never removes anything. */
function leavesTempDirs(source: string): boolean {
  const makes = /\bmkdtemp(Sync)?\s*\(/.test(source);
  const removes = /\b(rmSync|rmdirSync|rm|rmdir|removeTempDir)\s*\(/.test(source);
  return makes && !removes;
}

describe('temp dirs in tests', () => {
  it('finds a file that makes a dir and removes none, and passes one that removes its own or uses tempDir', () => {
    expect(leavesTempDirs("const dir = mkdtempSync(join(tmpdir(), 'x-'));")).toBe(true);
    expect(leavesTempDirs("const dir = await mkdtemp(join(tmpdir(), 'x-'));")).toBe(true);
    expect(leavesTempDirs("const dir = mkdtempSync('x'); afterAll(() => rmSync(dir, { recursive: true }));")).toBe(
      false,
    );
    expect(leavesTempDirs("const dir = tempDir('x-');")).toBe(false);
  });

  it('no file under test/ or bench/ makes temp dirs and leaves them', () => {
    const files = [...sourceFiles(join(root, 'test')), ...sourceFiles(join(root, 'bench'))];
    expect(files.length).toBeGreaterThan(100);
    const leaving = files
      .filter((file) => leavesTempDirs(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(leaving).toEqual([]);
  });
});

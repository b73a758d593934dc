import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDataFile,
  ensureDataFolder,
  openDataFileForAppend,
  readDataFile,
  readFileNoFollow,
  RefusedPathError,
  unexpectedAt,
  writeDataFile,
  writeDataFileAsync,
} from '../../../../electron/core/data-files';

let root: string;
/** The data folder, and a file outside it that links in the folder point at. */
let dir: string;
let outside: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'greenroom-data-files-'));
  dir = join(root, 'data');
  mkdirSync(dir);
  outside = join(root, 'elsewhere.txt');
  writeFileSync(outside, 'not Greenroom’s');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const refusedAs = (kind: string): unknown => expect.objectContaining({ name: 'RefusedPathError', kind });
/** Makes a named pipe; reading one the ordinary way blocks until someone writes into it. */
const fifo = (path: string): void => {
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
};

describe('reading a data file', () => {
  it('reads a plain file, and answers null for none', () => {
    writeFileSync(join(dir, 'a'), 'hello');
    expect(readDataFile(join(dir, 'a'))?.toString()).toBe('hello');
    expect(readDataFile(join(dir, 'missing'))).toBeNull();
  });

  it('refuses a link, naming where it points, and reads nothing through it', () => {
    symlinkSync(outside, join(dir, 'a'));
    let error: unknown;
    try {
      readDataFile(join(dir, 'a'));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(RefusedPathError);
    expect(error).toMatchObject({ kind: 'link', what: `a link to another place (${outside})` });
    expect(() => readFileNoFollow(join(dir, 'a'))).toThrow(expect.objectContaining({ code: 'ELOOP' }));
  });

  it('refuses a folder, and a pipe without waiting on it', () => {
    mkdirSync(join(dir, 'folder'));
    expect(() => readDataFile(join(dir, 'folder'))).toThrow(refusedAs('folder'));
    fifo(join(dir, 'pipe'));
    expect(() => readDataFile(join(dir, 'pipe'))).toThrow(refusedAs('special'));
  });
});

describe('writing a data file whole', () => {
  it('creates it 0600 and replaces an existing one, leaving no temporary file', async () => {
    const path = join(dir, 'a.json');
    writeFileSync(path, 'old', { mode: 0o644 });
    writeDataFile(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await writeDataFileAsync(join(dir, 'b.json'), 'async');
    expect(statSync(join(dir, 'b.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
  });

  it('refuses to write through a link: the link stays, the file it points at is untouched', async () => {
    const path = join(dir, 'a.json');
    symlinkSync(outside, path);
    expect(() => writeDataFile(path, 'over')).toThrow(refusedAs('link'));
    await expect(writeDataFileAsync(path, 'over')).rejects.toThrow(refusedAs('link'));
    expect(readFileSync(outside, 'utf8')).toBe('not Greenroom’s');
    expect(readlinkSync(path)).toBe(outside);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('never creates a new file through a dangling link either', () => {
    const target = join(root, 'would-be-made');
    symlinkSync(target, join(dir, 'key'));
    expect(() => createDataFile(join(dir, 'key'), 'secret')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(lstatSync(target, { throwIfNoEntry: false })).toBeUndefined();
  });
});

describe('appending to a data file', () => {
  it('creates it 0600 and appends', async () => {
    const path = join(dir, 'log.jsonl');
    for (const line of ['a\n', 'b\n']) {
      const file = await openDataFileForAppend(path);
      await file.write(line);
      await file.close();
    }
    expect(readFileSync(path, 'utf8')).toBe('a\nb\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a link and a file with a second name (a hard link) elsewhere', async () => {
    symlinkSync(outside, join(dir, 'linked'));
    await expect(openDataFileForAppend(join(dir, 'linked'))).rejects.toThrow(refusedAs('link'));
    linkSync(outside, join(dir, 'hard'));
    await expect(openDataFileForAppend(join(dir, 'hard'))).rejects.toThrow(refusedAs('hard-link'));
    expect(readFileSync(outside, 'utf8')).toBe('not Greenroom’s');
  });

  it('makes a file others could read 0600 again, keeping what it holds', async () => {
    const path = join(dir, 'mod-log.jsonl');
    writeFileSync(path, 'kept\n');
    chmodSync(path, 0o644);
    const file = await openDataFileForAppend(path);
    await file.write('added\n');
    await file.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('kept\nadded\n');
  });
});

describe('folders in the data folder', () => {
  it('are made 0700, and a link or a file in their place is refused', () => {
    ensureDataFolder(join(dir, 'journal'));
    expect(statSync(join(dir, 'journal')).mode & 0o777).toBe(0o700);
    ensureDataFolder(join(dir, 'journal'));
    // One made earlier with the usual 0755 (or 0777) is made 0700, its contents kept.
    writeFileSync(join(dir, 'journal', 'segment'), 'x');
    for (const [mode, made] of [
      [0o755, 0o700],
      [0o777, 0o700],
      [0o750, 0o700],
      // Read-only on purpose stays read-only: only the group's and others' bits go.
      [0o555, 0o500],
    ]) {
      chmodSync(join(dir, 'journal'), mode!);
      ensureDataFolder(join(dir, 'journal'));
      expect(statSync(join(dir, 'journal')).mode & 0o777).toBe(made);
    }
    chmodSync(join(dir, 'journal'), 0o700);
    expect(readdirSync(join(dir, 'journal'))).toEqual(['segment']);
    symlinkSync(root, join(dir, 'dedup'));
    expect(() => ensureDataFolder(join(dir, 'dedup'))).toThrow(refusedAs('link'));
    writeFileSync(join(dir, 'media'), '');
    expect(() => ensureDataFolder(join(dir, 'media'))).toThrow(refusedAs('file'));
  });

  it('says what stands where a file or folder belongs, and nothing for the right thing or none', () => {
    mkdirSync(join(dir, 'journal'));
    writeFileSync(join(dir, 'key'), 'k');
    symlinkSync(root, join(dir, 'dedup'));
    expect(unexpectedAt(join(dir, 'journal'), 'folder')).toBeNull();
    expect(unexpectedAt(join(dir, 'key'), 'file')).toBeNull();
    expect(unexpectedAt(join(dir, 'none'), 'file')).toBeNull();
    expect(unexpectedAt(join(dir, 'dedup'), 'folder')).toMatchObject({ kind: 'link' });
    expect(unexpectedAt(join(dir, 'journal'), 'file')).toMatchObject({ kind: 'folder' });
    expect(lstatSync(join(dir, 'dedup')).isSymbolicLink()).toBe(true);
  });
});

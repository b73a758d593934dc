/**
 * The mod log file when it is not what it should be: nothing in it is lost silently, and nothing outside
 * the data folder is read or written through it.
 */
import { spawnSync } from 'node:child_process';
import {
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
import type { ModAction } from '../../../../shared/views';
import { MOD_LOG_FILE, openModLogFile } from '../../../../electron/services/mod-log-file';

const NOW_MS = Date.UTC(2025, 0, 31, 18, 4, 5, 123);
const ASIDE = `${MOD_LOG_FILE}.damaged-2025-01-31T18-04-05-123Z`;

function action(n: number): ModAction {
  return { id: `a-${n}`, kind: 'ban', atMs: n, targetUserId: 7, targetUsername: 'noodle', ok: true };
}
const line = (n: number): string => `${JSON.stringify(action(n))}\n`;

let root: string;
let dir: string;
let path: string;
/** A file outside the data folder, written as if it were a mod log. */
let outside: string;
const OUTSIDE_TEXT = line(99);
let notices: string[];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'greenroom-modlog-aside-'));
  dir = join(root, 'data');
  mkdirSync(dir);
  path = join(dir, MOD_LOG_FILE);
  outside = join(root, 'elsewhere.jsonl');
  writeFileSync(outside, OUTSIDE_TEXT);
  notices = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const open = () =>
  openModLogFile(path, { limit: 500, log: () => undefined, notice: (l) => notices.push(l), nowMs: () => NOW_MS });

describe('the mod log file', () => {
  it('a link in its place is not read through: moved aside, the log starts empty, the other file untouched', async () => {
    symlinkSync(outside, path);
    const store = open();
    expect(store.load()).toEqual([]);
    expect(notices).toEqual([
      `Greenroom: the mod log ${path} is a link to another place (${outside}), which Greenroom will not follow; ` +
        `it was moved to ${join(dir, ASIDE)} and the mod log starts empty.`,
    ]);
    expect(readlinkSync(join(dir, ASIDE))).toBe(outside);
    await store.append(action(1));
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(line(1));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE_TEXT);
  });

  it('a link put there while Greenroom runs is neither appended to nor rewritten through', async () => {
    const store = open();
    store.load();
    await store.append(action(1));
    rmSync(path);
    symlinkSync(outside, path);
    await store.append(action(2));
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE_TEXT);
    expect(readlinkSync(path)).toBe(outside);
  });

  it('a file with a second name elsewhere (a hard link) is not appended to', async () => {
    linkSync(outside, path);
    const store = open();
    expect(store.load().map((a) => a.id)).toEqual(['a-99']);
    await store.append(action(1));
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE_TEXT);
  });

  it('some unreadable lines: the rest is kept, and a copy of the file as it was is kept before the rewrite', async () => {
    const text = `${line(1)}not a mod action\n{"id":"half"}\n${line(2)}`;
    writeFileSync(path, text);
    const store = open();
    expect(store.load().map((a) => a.id)).toEqual(['a-1', 'a-2']);
    expect(notices).toEqual([
      `Greenroom: the mod log ${path} had 2 line(s) that could not be read, left out of the mod log; ` +
        `a copy is kept as ${join(dir, ASIDE)} with them; the rest of the mod log is kept.`,
    ]);
    expect(readFileSync(join(dir, ASIDE), 'utf8')).toBe(text);
    await store.append(action(3));
    expect(readFileSync(path, 'utf8')).toBe(line(1) + line(2) + line(3));
  });

  it('nothing in it is a mod action: moved aside whole, the log starts empty', async () => {
    const text = 'PK\u0003\u0004 a zip file someone saved here\nmore of it\n';
    writeFileSync(path, text);
    const store = open();
    expect(store.load()).toEqual([]);
    expect(notices).toEqual([
      `Greenroom: the mod log ${path} was damaged (nothing in it is a mod action); it was moved to ${join(dir, ASIDE)} and the mod log starts empty.`,
    ]);
    expect(readFileSync(join(dir, ASIDE), 'utf8')).toBe(text);
    await store.append(action(1));
    expect(readFileSync(path, 'utf8')).toBe(line(1));
  });

  it('a folder or a pipe in its place is moved aside, and the start does not wait on the pipe', () => {
    mkdirSync(path);
    expect(open().load()).toEqual([]);
    expect(spawnSync('mkfifo', [path]).status).toBe(0);
    expect(open().load()).toEqual([]);
    expect(notices.map((n) => n.replace(/ it was moved to \S+/, ''))).toEqual([
      `Greenroom: the mod log ${path} is a folder, not a file, which Greenroom will not use; and the mod log starts empty.`,
      `Greenroom: the mod log ${path} is not a regular file (a pipe, socket or device), which Greenroom will not use; and the mod log starts empty.`,
    ]);
    expect(readdirSync(dir).filter((name) => name.includes('.damaged-'))).toHaveLength(2);
  });
});

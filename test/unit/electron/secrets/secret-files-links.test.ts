/**
 * The secret store's files in the data folder are never read or written through a link: a link at the
 * store file or the key file is moved aside (the link, never what it points at), said in one line, and the
 * store opens signed out with files of its own.
 */
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
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
  createNodeSecretStore,
  SECRETS_FILE_NAME,
  SECRETS_KEY_FILE_NAME,
  SIGN_IN_AGAIN,
} from '../../../../electron/secrets/node-secret-store';

const NOW = Date.UTC(2025, 0, 31, 18, 4, 5, 123);
const SUFFIX = '.damaged-2025-01-31T18-04-05-123Z';
/** A key file's worth of text elsewhere: the store must neither use it nor overwrite it. */
const OUTSIDE_KEY = `${Buffer.alloc(32, 9).toString('base64')}`;

let root: string;
let dir: string;
let outside: string;
let notices: string[];
const open = () => createNodeSecretStore(dir, { notice: (l) => notices.push(l), nowMs: () => NOW });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'greenroom-secret-links-'));
  dir = join(root, 'data');
  mkdirSync(dir);
  outside = join(root, 'elsewhere');
  notices = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('links at the secret store’s files', () => {
  it('the store file: moved aside, the file it points at untouched, a new sign-in kept in a file of its own', async () => {
    const text = '{"secrets":{}}';
    writeFileSync(outside, text);
    const file = join(dir, `${SECRETS_FILE_NAME}.json`);
    symlinkSync(outside, file);
    const store = open();
    expect(notices).toEqual([
      `Greenroom: the saved sign-in ${file} is a link to another place (${outside}), which Greenroom will not ` +
        `follow; it was moved to ${file}${SUFFIX}. ${SIGN_IN_AGAIN}`,
    ]);
    await store.set('kick.userToken', 'new');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(outside, 'utf8')).toBe(text);
    expect(readlinkSync(`${file}${SUFFIX}`)).toBe(outside);
  });

  it('the key file: not used as the key, moved aside with the secrets it guarded', async () => {
    await open().set('kick.userToken', 'saved');
    const keyFile = join(dir, SECRETS_KEY_FILE_NAME);
    writeFileSync(outside, OUTSIDE_KEY);
    rmSync(keyFile);
    symlinkSync(outside, keyFile);
    notices.length = 0;
    const store = open();
    expect(notices[0]).toMatch(
      new RegExp(
        `^Greenroom: the key file ${keyFile} is a link to another place \\(${outside}\\), which Greenroom will not follow, so the saved sign-in cannot be read`,
      ),
    );
    expect(await store.get('kick.userToken')).toBeNull();
    expect(readFileSync(outside, 'utf8')).toBe(OUTSIDE_KEY);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(OUTSIDE_KEY);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('a pipe at the store file does not hang the start', () => {
    const file = join(dir, `${SECRETS_FILE_NAME}.json`);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    open();
    expect(notices[0]).toContain('is not a regular file (a pipe, socket or device), which Greenroom will not use');
  });
});

/**
 * Start-up faults in the panel-only secret store: a damaged store file or key file is moved aside
 * with one plain line asking the streamer to sign in again, and the store opens empty instead of throwing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DamagedKeyFileError, NodeAesCipher } from '../../../../electron/secrets/cipher';
import { EncryptedSecretStore, type KeyValueStore } from '../../../../electron/secrets/encrypted-secret-store';
import {
  createNodeSecretStore,
  SECRETS_FILE_NAME,
  SECRETS_KEY_FILE_NAME,
  SIGN_IN_AGAIN,
} from '../../../../electron/secrets/node-secret-store';

const NOW = Date.UTC(2025, 0, 31, 18, 4, 5, 123);
const STAMP = '2025-01-31T18-04-05-123Z';

describe('node secret store with damaged files', () => {
  let dir: string;
  let file: string;
  let keyFile: string;
  const notices: string[] = [];
  const open = () => createNodeSecretStore(dir, { notice: (l) => notices.push(l), nowMs: () => NOW });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-secrets-'));
    file = join(dir, `${SECRETS_FILE_NAME}.json`);
    keyFile = join(dir, SECRETS_KEY_FILE_NAME);
    notices.length = 0;
    await open().set('kick.userToken', 'a-saved-sign-in');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['empty', ''],
    ['cut short', '{"secrets":{"kick.userToken":{"v":1,"backend":"node-'],
  ])('moves an %s store file aside and opens signed out, in one line', async (_, text) => {
    writeFileSync(file, text);
    const store = open();
    expect(await store.get('kick.userToken')).toBeNull();
    expect(readFileSync(`${file}.damaged-${STAMP}`, 'utf8')).toBe(text);
    expect(notices).toEqual([
      `Greenroom: the saved sign-in ${file} was damaged (not valid JSON); it was moved to ${file}.damaged-${STAMP}. ${SIGN_IN_AGAIN}`,
    ]);
    // The fresh store works: a new sign-in is kept.
    await store.set('kick.userToken', 'new');
    expect(await open().get('kick.userToken')).toBe('new');
  });

  it.each([
    ['truncated', (key: string) => key.slice(0, 20)],
    ['empty', () => ''],
    ['overwritten', (key: string) => `${key.slice(0, 10)}!${key.slice(11)}`],
  ])('moves a %s key file aside with the secrets it guards, and makes a new key', async (_, damage) => {
    const key = readFileSync(keyFile, 'utf8');
    const secrets = readFileSync(file, 'utf8');
    writeFileSync(keyFile, damage(key));
    expect(() => NodeAesCipher.fromKeyFile(keyFile)).toThrow(DamagedKeyFileError);

    const store = open();
    expect(await store.get('kick.userToken')).toBeNull();
    expect(readFileSync(`${keyFile}.damaged-${STAMP}`, 'utf8')).toBe(damage(key));
    expect(readFileSync(`${file}.damaged-${STAMP}`, 'utf8')).toBe(secrets);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(notices).toEqual([
      `Greenroom: the key file ${keyFile} was damaged, so the saved sign-in cannot be read; moved aside to ` +
        `${keyFile}.damaged-${STAMP} and ${file}.damaged-${STAMP}. ${SIGN_IN_AGAIN}`,
    ]);
    expect(readdirSync(dir).sort()).toEqual(
      [
        SECRETS_KEY_FILE_NAME,
        `${SECRETS_KEY_FILE_NAME}.damaged-${STAMP}`,
        `${SECRETS_FILE_NAME}.json.damaged-${STAMP}`,
      ].sort(),
    );
  });
});

describe('encrypted secret store on a disk that refuses writes', () => {
  it('keeps a value for this run, says so once, and removing one never throws', async () => {
    const refusal = Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
    const saved = new Map<string, unknown>();
    let refusing = false;
    const kv: KeyValueStore = {
      get: (key) => saved.get(key),
      set: (key, value) => {
        if (refusing) {
          throw refusal;
        }
        saved.set(key, value);
      },
      delete: (key) => {
        if (refusing) {
          throw refusal;
        }
        saved.delete(key);
      },
    };
    const lines: string[] = [];
    const store = new EncryptedSecretStore({
      kv,
      cipher: new NodeAesCipher(Buffer.alloc(32, 3)),
      log: (l) => lines.push(l),
    });
    await store.set('a', 'on disk');
    refusing = true;
    await store.set('a', 'in memory');
    await store.set('b', 'also in memory');
    expect(await store.get('a')).toBe('in memory');
    expect(await store.get('b')).toBe('also in memory');
    expect(lines).toEqual(['secrets: could not save (the disk is read-only); kept until Greenroom closes']);
    await expect(store.delete('b')).resolves.toBeUndefined();
    expect(await store.get('b')).toBeNull();
    expect(lines.at(-1)).toBe('secrets: could not remove b (the disk is read-only)');
  });
});

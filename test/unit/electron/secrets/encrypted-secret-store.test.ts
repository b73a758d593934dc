import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeAesCipher, type StringCipher } from '../../../../electron/secrets/cipher';
import {
  createNodeSecretStore,
  SECRETS_FILE_NAME,
  SECRETS_KEY_FILE_NAME,
} from '../../../../electron/secrets/node-secret-store';
import { redactFields, redactText } from '../../../../electron/secrets/redact';

describe('encrypted secret store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('round-trips values and keeps only ciphertext in a 0600 file, with the key in a separate 0600 file', async () => {
    const store = createNodeSecretStore(dir);
    await store.set('kick.clientSecret', 'super-secret-value-123');
    expect(await store.get('kick.clientSecret')).toBe('super-secret-value-123');
    const file = join(dir, `${SECRETS_FILE_NAME}.json`);
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toContain('super-secret-value-123');
    expect(raw).not.toContain(Buffer.from('super-secret-value-123').toString('base64'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, SECRETS_KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
    // A second store over the same files (a restart) reads the value back.
    expect(await createNodeSecretStore(dir).get('kick.clientSecret')).toBe('super-secret-value-123');
  });

  it('drops a value it cannot decrypt (a different key) instead of failing', async () => {
    await createNodeSecretStore(dir).set('a', 'value');
    const other = createNodeSecretStore(dir, { cipher: new NodeAesCipher(Buffer.alloc(32, 7)) });
    expect(await other.get('a')).toBeNull();
    expect(await other.get('a')).toBeNull();
  });

  it('refuses to store anything when no encryption is available', async () => {
    const unavailable: StringCipher = {
      backend: 'none',
      degraded: true,
      isAvailable: () => false,
      encrypt: () => Promise.reject(new Error('unreachable')),
      decrypt: () => Promise.reject(new Error('unreachable')),
    };
    const store = createNodeSecretStore(dir, { cipher: unavailable });
    await expect(store.set('a', 'plain')).rejects.toMatchObject({ code: 'SecretStoreUnavailable' });
    expect(readFileSync(join(dir, `${SECRETS_FILE_NAME}.json`), { flag: 'a+' }).toString()).not.toContain('plain');
  });

  it('reports a weak backend as degraded', () => {
    const basicText: StringCipher = {
      backend: 'basic_text',
      degraded: true,
      isAvailable: () => true,
      encrypt: (s) => Promise.resolve(Buffer.from(s)),
      decrypt: (b) => Promise.resolve(b.toString()),
    };
    expect(createNodeSecretStore(dir, { cipher: basicText }).degraded).toBe(true);
    expect(
      createNodeSecretStore(dir, { cipher: new NodeAesCipher(Buffer.alloc(32, 1), { degraded: false }) }).degraded,
    ).toBe(false);
  });

  it('redacts tokens and secrets from log text and fields', () => {
    expect(redactText('Authorization: Bearer abc.DEF-123')).toBe('Authorization: Bearer [redacted]');
    expect(redactText('/callback?code=xyz&state=s1&other=1')).toBe(
      '/callback?code=[redacted]&state=[redacted]&other=1',
    );
    expect(redactText('{"access_token":"t1","expires_in":3600}')).toBe(
      '{"access_token":"[redacted]","expires_in":3600}',
    );
    expect(redactFields({ clientSecret: 's', nested: { refresh_token: 'r', user: 'bob' }, url: 'x?token=1' })).toEqual({
      clientSecret: '[redacted]',
      nested: { refresh_token: '[redacted]', user: 'bob' },
      url: 'x?token=[redacted]',
    });
  });
});

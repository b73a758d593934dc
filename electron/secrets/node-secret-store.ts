/**
 * The secret store outside Electron (tests, the panel-only mode): the same EncryptedSecretStore code over
 * `conf` (electron-store's engine) with Node's AES-GCM cipher. The key lives in its own file beside the
 * store, never inside it; both files are 0600.
 */
import Conf from 'conf';
import { join } from 'node:path';
import { NodeAesCipher, type StringCipher } from './cipher';
import { EncryptedSecretStore, type KeyValueStore } from './encrypted-secret-store';

export const SECRETS_FILE_NAME = 'greenroom-secrets';
export const SECRETS_KEY_FILE_NAME = 'greenroom-secrets.key';

/** A 0600 JSON file store in `dir`; writes are atomic (conf writes a temp file and renames it). */
export function openKeyValueFile(dir: string, name: string): KeyValueStore & { path: string } {
  return new Conf<Record<string, unknown>>({
    cwd: dir,
    configName: name,
    configFileMode: 0o600,
    projectName: 'greenroom',
    clearInvalidConfig: false,
  });
}

export function createNodeSecretStore(
  dir: string,
  options: { cipher?: StringCipher; log?: (m: string) => void } = {},
): EncryptedSecretStore {
  const cipher = options.cipher ?? NodeAesCipher.fromKeyFile(join(dir, SECRETS_KEY_FILE_NAME));
  return new EncryptedSecretStore({ kv: openKeyValueFile(dir, SECRETS_FILE_NAME), cipher, log: options.log });
}

/**
 * The secret store outside Electron (tests, the panel-only mode): the same EncryptedSecretStore code over
 * `conf` (electron-store's engine) with Node's AES-GCM cipher. The key lives in its own file beside the
 * store, never inside it; both files are 0600.
 *
 * A damaged store file (empty, cut short, not JSON) or a damaged key file does not stop Greenroom: the file
 * is moved aside (damaged-file.ts), the streamer is told in one line to sign in again, and the app starts
 * signed out. Without the key the saved values cannot be read, so a damaged key moves both files aside.
 */
import Conf from 'conf';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { DamagedKeyFileError, NodeAesCipher, type StringCipher } from './cipher';
import { moveAside, openMovingAsideDamage } from './damaged-file';
import { EncryptedSecretStore, type KeyValueStore } from './encrypted-secret-store';

export const SECRETS_FILE_NAME = 'greenroom-secrets';
export const SECRETS_KEY_FILE_NAME = 'greenroom-secrets.key';

/** What the streamer does after the saved sign-in was lost, in the notice lines below. */
export const SIGN_IN_AGAIN = 'Sign in again; if you use your own Kick app, enter its client secret in Settings again.';

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

/** Options of {@link createNodeSecretStore}. */
export interface NodeSecretStoreDeps {
  /** The cipher to use instead of the key file (tests). */
  cipher?: StringCipher;
  log?: (line: string) => void;
  /** One plain line for the streamer when a damaged file was moved aside; `log` when absent. */
  notice?: (line: string) => void;
  /** Clock for the moved-aside file names. */
  nowMs?: () => number;
}

export function createNodeSecretStore(dir: string, options: NodeSecretStoreDeps = {}): EncryptedSecretStore {
  const log = options.log ?? (() => undefined);
  const notice = options.notice ?? log;
  const nowMs = options.nowMs ?? Date.now;
  const file = join(dir, `${SECRETS_FILE_NAME}.json`);
  const cipher = options.cipher ?? openKeyFile(join(dir, SECRETS_KEY_FILE_NAME), file, { notice, nowMs });
  const kv = openMovingAsideDamage(file, () => openKeyValueFile(dir, SECRETS_FILE_NAME), {
    nowMs,
    onMovedAside: (aside, reason) =>
      notice(`Greenroom: the saved sign-in ${file} ${reason}; it was moved to ${aside}. ${SIGN_IN_AGAIN}`),
  });
  return new EncryptedSecretStore({ kv, cipher, log });
}

/** The key file's cipher; a damaged key file is moved aside with the secrets it guards, and a new key made. */
function openKeyFile(
  keyFile: string,
  secretsFile: string,
  options: { notice: (line: string) => void; nowMs: () => number },
): NodeAesCipher {
  let reason: string;
  try {
    return NodeAesCipher.fromKeyFile(keyFile);
  } catch (error) {
    if (!(error instanceof DamagedKeyFileError)) {
      throw error;
    }
    reason = error.reason;
  }
  const moved = [moveAside(keyFile, options.nowMs())];
  if (lstatSync(secretsFile, { throwIfNoEntry: false })) {
    moved.push(moveAside(secretsFile, options.nowMs()));
  }
  options.notice(
    `Greenroom: the key file ${keyFile} ${reason}, so the saved sign-in cannot be read; ` +
      `moved aside to ${moved.join(' and ')}. ${SIGN_IN_AGAIN}`,
  );
  return NodeAesCipher.fromKeyFile(keyFile);
}

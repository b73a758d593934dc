/**
 * The encryption behind the secret store. In Electron it is safeStorage (the OS keychain, DPAPI or the
 * Linux secret service); elsewhere (tests, the panel-only mode without Electron) AES-256-GCM from Node's
 * crypto with a key kept in its own 0600 file, outside the store file.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDataFile, readDataFile, RefusedPathError } from '../core/data-files';
import { asideReason } from './damaged-file';

export interface StringCipher {
  /**
   * The backend that does the encryption: safeStorage's `getSelectedStorageBackend()` values on Linux
   * (`gnome_libsecret`, `kwallet5`, `basic_text`, …), `keychain`/`dpapi` elsewhere, `node-aes-gcm` here.
   */
  readonly backend: string;
  /**
   * True when the protection is weak: safeStorage's Linux `basic_text` (a hard-coded key, see Electron's
   * safe-storage docs) or a key file on the same disk. The UI says so.
   */
  readonly degraded: boolean;
  isAvailable(): boolean;
  encrypt(plain: string): Promise<Buffer>;
  decrypt(cipher: Buffer): Promise<string>;
}

const VERSION = 1;

/** A key file holds exactly this: 32 random bytes in base64 (44 characters with the padding). */
const KEY_FILE_SHAPE = /^[A-Za-z0-9+/]{43}=$/;

/** The key file exists but does not hold a key (truncated, emptied, overwritten): the secrets it guards are lost. */
export class DamagedKeyFileError extends Error {
  override readonly name = 'DamagedKeyFileError';
  readonly path: string;
  /** What is wrong, after the path: "was damaged", "is a link to another place (/x)". */
  readonly reason: string;

  constructor(path: string, reason = 'was damaged') {
    super(`${path} does not hold a 32-byte key`);
    this.path = path;
    this.reason = reason;
  }
}

/** AES-256-GCM with a random 96-bit IV per value; layout `version | iv | tag | ciphertext`. */
export class NodeAesCipher implements StringCipher {
  readonly backend = 'node-aes-gcm';
  readonly degraded: boolean;
  readonly #key: Buffer;

  constructor(key: Buffer, options: { degraded?: boolean } = {}) {
    if (key.length !== 32) {
      throw new RangeError('NodeAesCipher needs a 32-byte key');
    }
    this.#key = key;
    this.degraded = options.degraded ?? true;
  }

  /**
   * Loads the key from `keyFile`, creating it (mode 0600) on first use. Throws {@link DamagedKeyFileError}
   * when the file holds anything but a key: Buffer's base64 decoder skips what it cannot read, so a
   * truncated file would otherwise turn into a shorter (or, past a stray character, a different) key.
   */
  static fromKeyFile(keyFile: string): NodeAesCipher {
    // Never through a link, nor a pipe that would hang the read (electron/core/data-files.ts).
    let stored: Buffer | null;
    try {
      stored = readDataFile(keyFile);
    } catch (error) {
      if (error instanceof RefusedPathError) {
        throw new DamagedKeyFileError(keyFile, asideReason(error));
      }
      throw error;
    }
    if (stored === null) {
      mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
      stored = Buffer.from(randomBytes(32).toString('base64'));
      createDataFile(keyFile, stored);
    }
    const text = stored.toString('utf8').trim();
    if (!KEY_FILE_SHAPE.test(text)) {
      throw new DamagedKeyFileError(keyFile);
    }
    return new NodeAesCipher(Buffer.from(text, 'base64'));
  }

  isAvailable(): boolean {
    return true;
  }

  encrypt(plain: string): Promise<Buffer> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Promise.resolve(Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]));
  }

  decrypt(data: Buffer): Promise<string> {
    if (data.length < 29 || data[0] !== VERSION) {
      return Promise.reject(new Error('not a value this cipher wrote'));
    }
    const decipher = createDecipheriv('aes-256-gcm', this.#key, data.subarray(1, 13));
    decipher.setAuthTag(data.subarray(13, 29));
    return Promise.resolve(Buffer.concat([decipher.update(data.subarray(29)), decipher.final()]).toString('utf8'));
  }
}

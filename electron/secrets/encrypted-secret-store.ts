/**
 * The SecretStore Greenroom uses: values encrypted by a StringCipher (safeStorage in Electron) and kept as
 * base64 ciphertext in electron-store (or `conf`, the same engine, outside Electron). Nothing secret is
 * ever written in plain text; with no encryption available, writes fail instead of falling back.
 *
 * When the disk refuses a write (read-only data dir, full disk) the value is kept in memory for this run
 * and that is said once, so a sign-in still works until Greenroom closes instead of failing outright.
 */
import { AppError } from '../../shared/errors';
import type { StringCipher } from './cipher';
import { fsReason } from './damaged-file';
import type { SecretStore } from './secret-store';

/** The slice of electron-store / conf this store uses. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

interface StoredSecret {
  v: 1;
  /** Which backend wrote it: a value from another backend cannot be read and is dropped. */
  backend: string;
  data: string;
}

const PREFIX = 'secrets';

export class EncryptedSecretStore implements SecretStore {
  readonly #kv: KeyValueStore;
  readonly #cipher: StringCipher;
  readonly #log: (message: string) => void;
  /** Values the disk refused, kept for this run only. */
  readonly #unsaved = new Map<string, string>();

  constructor(deps: { kv: KeyValueStore; cipher: StringCipher; log?: (message: string) => void }) {
    this.#kv = deps.kv;
    this.#cipher = deps.cipher;
    this.#log = deps.log ?? (() => undefined);
  }

  /** Weak protection (Linux `basic_text`, or a key file on the same disk): shown to the user. */
  get degraded(): boolean {
    return this.#cipher.degraded;
  }

  get backend(): string {
    return this.#cipher.backend;
  }

  async get(key: string): Promise<string | null> {
    const unsaved = this.#unsaved.get(key);
    if (unsaved !== undefined) {
      return unsaved;
    }
    const stored = this.#kv.get(`${PREFIX}.${key}`) as StoredSecret | undefined;
    if (!stored || stored.v !== 1 || typeof stored.data !== 'string') {
      return null;
    }
    if (stored.backend !== this.#cipher.backend || !this.#cipher.isAvailable()) {
      this.#log(
        `secret ${key} was written by ${stored.backend} and cannot be read with ${this.#cipher.backend}; it is dropped`,
      );
      this.#forget(key);
      return null;
    }
    try {
      return await this.#cipher.decrypt(Buffer.from(stored.data, 'base64'));
    } catch {
      // A keychain reset or a copied profile: the value is unreadable, so it is as good as absent.
      this.#log(`secret ${key} could not be decrypted; it is dropped`);
      this.#forget(key);
      return null;
    }
  }

  async set(key: string, value: string): Promise<void> {
    if (!this.#cipher.isAvailable()) {
      throw new AppError(
        'SecretStoreUnavailable',
        'No encryption is available on this system, so Greenroom will not store secrets',
      );
    }
    const data = (await this.#cipher.encrypt(value)).toString('base64');
    const record: StoredSecret = { v: 1, backend: this.#cipher.backend, data };
    try {
      this.#kv.set(`${PREFIX}.${key}`, record);
      this.#unsaved.delete(key);
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).code !== 'string') {
        throw error;
      }
      if (this.#unsaved.size === 0) {
        this.#log(`secrets: could not save (${fsReason(error)}); kept until Greenroom closes`);
      }
      this.#unsaved.set(key, value);
    }
  }

  delete(key: string): Promise<void> {
    this.#unsaved.delete(key);
    this.#forget(key);
    return Promise.resolve();
  }

  /** Removes a stored value; a disk that refuses is logged, not thrown. */
  #forget(key: string): void {
    try {
      this.#kv.delete(`${PREFIX}.${key}`);
    } catch (error) {
      if (typeof (error as NodeJS.ErrnoException).code !== 'string') {
        throw error;
      }
      // Tokens left behind were revoked at sign-out (or are unreadable), so the next start drops them again.
      this.#log(`secrets: could not remove ${key} (${fsReason(error)})`);
    }
  }
}

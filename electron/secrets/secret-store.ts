/**
 * Where tokens and the client secret live. Main code depends on this interface only; the Electron build
 * backs it with safeStorage-encrypted values, tests with the in-memory store below.
 */
export interface SecretStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Keeps secrets in memory only: tests, and the embedded sandbox whose tokens are worthless anyway. */
export class MemorySecretStore implements SecretStore {
  readonly #values = new Map<string, string>();

  get(key: string): Promise<string | null> {
    return Promise.resolve(this.#values.get(key) ?? null);
  }

  set(key: string, value: string): Promise<void> {
    this.#values.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.#values.delete(key);
    return Promise.resolve();
  }

  /** Keys present, for tests that check a wipe. */
  keys(): string[] {
    return [...this.#values.keys()];
  }
}

/** Secret keys, in one place so a wipe cannot miss one. */
export const SECRET_KEYS = {
  appToken: 'kick.appToken',
  userToken: 'kick.userToken',
  clientSecret: 'kick.clientSecret',
  /** OBS's websocket password (docs/obs.md#connecting-to-obs): encrypted like the client secret, never sent to a panel. */
  obsPassword: 'obs.password',
} as const;

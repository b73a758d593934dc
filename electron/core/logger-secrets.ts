/**
 * Telling the logger the secrets the app holds as they are loaded or changed
 * ([logging](../../docs/logging.md#no-secret-in-any-line)): the secret store is the one place the Kick tokens,
 * the client secret and the OBS password are read and saved, so each value read or saved through it is
 * learned before any module holding it could log it.
 */
import { learnStoredSecret, type Redactor } from './logger-redact';

/** The part of the secret store (electron/secrets/secret-store.ts) this needs. */
export interface SecretStoreLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
}

/** The same store, whose every value read or saved is learned by `redactor` first. */
export function learningSecretStore<T extends SecretStoreLike>(store: T, redactor: Redactor): T {
  const get = store.get.bind(store);
  const set = store.set.bind(store);
  // In place, not a copy: the store's other members (its backend, whether it is degraded) stay as they are.
  store.get = async (key) => {
    const value = await get(key);
    learnStoredSecret(redactor, value);
    return value;
  };
  store.set = (key, value) => {
    learnStoredSecret(redactor, value);
    return set(key, value);
  };
  return store;
}

/** The panel token in the panel's URL (`?token=…`), or null. */
export function panelTokenOf(url: string | undefined): string | null {
  if (!url) {
    return null;
  }
  try {
    return new URL(url).searchParams.get('token');
  } catch {
    return null;
  }
}

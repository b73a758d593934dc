/**
 * The app's sandbox sign-in store (electron/app/sandbox-tokens.ts): kept in the secret store under keys of
 * its own, never where a Kick sign-in is; a store that cannot keep a value leaves the sign-in in memory
 * for the run, said once ([sandbox notes](../../../../docs/sandbox.md#what-the-saved-world-keeps)).
 */
import { describe, expect, it } from 'vitest';
import { sandboxTokenStore } from '../../../../electron/app/sandbox-tokens';
import { MemorySecretStore, SECRET_KEYS, type SecretStore } from '../../../../electron/secrets/secret-store';
import { AppError } from '../../../../shared/errors';

describe('the sandbox sign-in store', () => {
  it('keeps sandbox tokens beside a Kick sign-in, never over it', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set(SECRET_KEYS.userToken, 'kick-token');
    const store = sandboxTokenStore(secrets, () => undefined);
    await store.set(SECRET_KEYS.userToken, 'sandbox-token');
    expect(await secrets.get(SECRET_KEYS.userToken)).toBe('kick-token');
    expect(await secrets.get(`sandbox.${SECRET_KEYS.userToken}`)).toBe('sandbox-token');
    // A second store on the same secrets (the next start) reads it back.
    expect(await sandboxTokenStore(secrets, () => undefined).get(SECRET_KEYS.userToken)).toBe('sandbox-token');
    await store.delete(SECRET_KEYS.userToken);
    expect(await store.get(SECRET_KEYS.userToken)).toBeNull();
    expect(secrets.keys()).toEqual([SECRET_KEYS.userToken]);
  });

  it('keeps the sign-in for this run when the secret store refuses it, and says so once', async () => {
    const refusing: SecretStore = {
      get: () => Promise.resolve(null),
      set: () => Promise.reject(new AppError('SecretStoreUnavailable', 'No encryption is available on this system')),
      delete: () => Promise.resolve(),
    };
    const logs: string[] = [];
    const store = sandboxTokenStore(refusing, (line) => logs.push(line));
    await store.set(SECRET_KEYS.userToken, 'a');
    await store.set(SECRET_KEYS.appToken, 'b');
    expect(await store.get(SECRET_KEYS.userToken)).toBe('a');
    expect(await store.get(SECRET_KEYS.appToken)).toBe('b');
    expect(logs).toEqual([
      'sandbox: the sign-in cannot be kept for the next start (No encryption is available on this system); it lasts until Greenroom closes',
    ]);
    await store.delete(SECRET_KEYS.userToken);
    expect(await store.get(SECRET_KEYS.userToken)).toBeNull();
  });
});

/**
 * Where the app keeps its sandbox sign-in: in the streamer's secret store (encrypted, like a Kick
 * sign-in), under keys of their own so a sandbox token never stands where a Kick one belongs. The embedded
 * sandbox keeps its world across restarts (embedded-sandbox.ts), so these tokens stay good and the streamer
 * stays signed in ([sandbox notes](../../docs/sandbox.md#what-the-saved-world-keeps)).
 *
 * A secret store that cannot keep a value (no encryption on this system, a read-only disk) must not stop a
 * sandbox sign-in: the value is then kept in memory for this run, as before, and that is said once.
 */
import { MemorySecretStore, SECRET_KEYS, type SecretStore } from '../secrets/secret-store';

const PREFIX = 'sandbox.';

/** The sandbox's token keys, so "Reset the sandbox" forgets every one. */
export const SANDBOX_TOKEN_KEYS = [SECRET_KEYS.userToken, SECRET_KEYS.appToken] as const;

export function sandboxTokenStore(store: SecretStore, log: (line: string) => void): SecretStore {
  const memory = new MemorySecretStore();
  let told = false;
  return {
    async get(key) {
      const kept = await memory.get(key);
      if (kept !== null) {
        return kept;
      }
      try {
        return await store.get(PREFIX + key);
      } catch {
        return null;
      }
    },
    async set(key, value) {
      try {
        await store.set(PREFIX + key, value);
        await memory.delete(key);
      } catch (error) {
        if (!told) {
          log(
            `sandbox: the sign-in cannot be kept for the next start (${error instanceof Error ? error.message : String(error)}); it lasts until Greenroom closes`,
          );
          told = true;
        }
        await memory.set(key, value);
      }
    },
    async delete(key) {
      await memory.delete(key);
      await store.delete(PREFIX + key).catch(() => undefined);
    },
  };
}

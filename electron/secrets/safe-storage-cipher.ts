/**
 * The StringCipher behind the desktop app's secret store: Electron's safeStorage (the macOS Keychain,
 * Windows DPAPI, or the Linux secret service), through the async API Electron 45 provides. On Linux the
 * backend is recorded, and `basic_text` (a hard-coded key, used when no keyring is found) is marked
 * degraded so the UI says so.
 * @see https://www.electronjs.org/docs/latest/api/safe-storage
 */
import { safeStorage } from 'electron';
import type { StringCipher } from './cipher';

/** Backend name for a platform; on Linux, safeStorage's own (valid only after app `ready`). */
function backendName(platform: NodeJS.Platform): string {
  if (platform === 'linux') {
    return safeStorage.getSelectedStorageBackend();
  }
  return platform === 'darwin' ? 'keychain' : platform === 'win32' ? 'dpapi' : platform;
}

/** Creates the cipher; call after `app.whenReady()`. */
export async function createSafeStorageCipher(platform: NodeJS.Platform = process.platform): Promise<StringCipher> {
  const available = await safeStorage.isAsyncEncryptionAvailable();
  const backend = backendName(platform);
  return {
    backend,
    degraded: backend === 'basic_text' || backend === 'unknown',
    isAvailable: () => available,
    encrypt: (plain) => safeStorage.encryptStringAsync(plain),
    decrypt: async (cipher) => (await safeStorage.decryptStringAsync(cipher)).result,
  };
}

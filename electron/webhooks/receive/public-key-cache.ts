/**
 * Kick's webhook public key, fetched from `GET /public/v1/public-key` ([reference §5.3](../../../docs/kick-wire-reference.md#53-signature-algorithm)) once and cached.
 * If Kick rotates the key, the first delivery that fails verification may trigger one refetch, at most
 * once a minute, so forged deliveries cannot turn the receiver into a key-endpoint hammer.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Clock } from '../../core/clock';
import { type SignedDelivery, signatureLength, verifyKickSignature } from './verify-signature';

export interface PublicKeyCache {
  /** The cached key, fetching it first if needed. Rejects when it cannot be fetched or read. */
  get(): Promise<KeyObject>;
  /** The cached key if there is one, without fetching (the receiver's synchronous fast path). */
  peek(): KeyObject | null;
  /**
   * After a verification failure with the cached key: refetches if the last fetch was at least the
   * refresh interval ago and returns the new key when it differs from the old one; null otherwise
   * (not allowed yet, fetch failed, or the same key). Never rejects.
   */
  refreshAfterFailure(): Promise<KeyObject | null>;
}

export interface PublicKeyCacheDeps {
  /** Returns the PEM (in the app: `kickClient.fetchPublicKey()`). */
  fetchPublicKey: () => Promise<string>;
  clock: Clock;
  /** Minimum time between a refetch and the previous fetch; default one minute. */
  refreshIntervalMs?: number;
  /** After a failed first fetch, `get()` fails fast for this long instead of fetching again; default 5 s. */
  retryAfterFailureMs?: number;
  log?: (level: 'info' | 'warn', message: string, fields: Record<string, unknown>) => void;
}

/** Reads a PEM as an RSA public key (SPKI, or PKCS#1 `RSA PUBLIC KEY`); throws if it is anything else. */
export function readPublicKeyPem(pem: string): KeyObject {
  const key = createPublicKey({ key: pem, format: 'pem' });
  if (signatureLength(key) === null) {
    throw new Error(`public key is ${key.asymmetricKeyType ?? 'unknown'}, not RSA`);
  }
  return key;
}

/** Creates the cache; nothing is fetched until the first `get()`. */
export function createPublicKeyCache(options: PublicKeyCacheDeps): PublicKeyCache {
  const refreshIntervalMs = options.refreshIntervalMs ?? 60_000;
  const retryAfterFailureMs = options.retryAfterFailureMs ?? 5_000;
  const log = options.log ?? (() => undefined);
  let key: KeyObject | null = null;
  let lastFetchAtMs: number | null = null;
  let lastFailure: { atMs: number; error: unknown } | null = null;
  // Single flight: concurrent deliveries share one fetch and one refresh.
  let inFlight: Promise<KeyObject> | null = null;
  let refreshing: Promise<KeyObject | null> | null = null;

  const fetchOnce = async (): Promise<KeyObject> => {
    lastFetchAtMs = options.clock.now();
    try {
      const fetched = readPublicKeyPem(await options.fetchPublicKey());
      lastFailure = null;
      return fetched;
    } catch (error) {
      lastFailure = { atMs: options.clock.now(), error };
      throw error;
    }
  };
  const fetchKey = (): Promise<KeyObject> => {
    if (inFlight) {
      return inFlight;
    }
    const pending = fetchOnce();
    inFlight = pending;
    // Cleared once settled; a `finally` inside fetchOnce could run before this assignment.
    const clear = (): void => {
      if (inFlight === pending) {
        inFlight = null;
      }
    };
    void pending.then(clear, clear);
    return pending;
  };

  const refreshOnce = async (): Promise<KeyObject | null> => {
    if (lastFetchAtMs !== null && options.clock.now() - lastFetchAtMs < refreshIntervalMs) {
      return null;
    }
    try {
      const old = key;
      const fresh = await fetchKey();
      key = fresh;
      if (old && old.equals(fresh)) {
        return null;
      }
      log('info', 'webhook public key changed', {});
      return fresh;
    } catch (error) {
      log('warn', 'webhook public key refetch failed', { error: String(error) });
      return null;
    }
  };

  return {
    peek: () => key,

    async get() {
      if (key) {
        return key;
      }
      if (lastFailure && options.clock.now() - lastFailure.atMs < retryAfterFailureMs) {
        throw lastFailure.error;
      }
      key = await fetchKey();
      return key;
    },

    refreshAfterFailure() {
      if (refreshing) {
        return refreshing;
      }
      const pending = refreshOnce();
      refreshing = pending;
      void pending.then(() => {
        if (refreshing === pending) {
          refreshing = null;
        }
      });
      return pending;
    },
  };
}

/** The outcome of {@link verifyWithKeyCache}. */
export type KeyedVerdict = 'verified' | 'bad-signature' | 'key-unavailable';

/**
 * Verifies with the cached key (synchronously when it is already cached). On a mismatch, tries once more
 * with a refreshed key in case Kick rotated it; the cache decides whether a refetch is allowed yet.
 */
export async function verifyWithKeyCache(
  cache: PublicKeyCache,
  delivery: SignedDelivery,
  log: (level: 'error', message: string, fields: Record<string, unknown>) => void,
): Promise<KeyedVerdict> {
  let key = cache.peek();
  if (!key) {
    try {
      key = await cache.get();
    } catch (error) {
      log('error', 'webhook public key unavailable', { error: String(error) });
      return 'key-unavailable';
    }
  }
  if (verifyKickSignature(delivery, key)) {
    return 'verified';
  }
  const fresh = await cache.refreshAfterFailure();
  return fresh && verifyKickSignature(delivery, fresh) ? 'verified' : 'bad-signature';
}

/**
 * The app access token (client credentials, [reference §2.2](../../../docs/kick-wire-reference.md#22-token)): fetched on the first call that needs it,
 * cached in the secret store so a restart reuses it while valid, renewed a margin before expiry, and
 * fetched once however many callers ask at the same moment.
 */
import type { Clock } from '../../core/clock';
import { SECRET_KEYS, type SecretStore } from '../../secrets/secret-store';
import { WIRE_ASSUMPTIONS } from '../wire-assumptions';
import type { KickOAuth } from './oauth-endpoints';

interface StoredAppToken {
  accessToken: string;
  expiresAtMs: number;
  clientId: string;
}

export class AppTokenManager {
  readonly #oauth: KickOAuth;
  readonly #store: SecretStore;
  readonly #clock: Clock;
  readonly #marginMs: number;
  #cached: StoredAppToken | null = null;
  #loaded = false;
  #inFlight: Promise<string> | null = null;

  constructor(deps: { oauth: KickOAuth; store: SecretStore; clock: Clock; marginSeconds?: number }) {
    this.#oauth = deps.oauth;
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#marginMs = (deps.marginSeconds ?? WIRE_ASSUMPTIONS.refreshMarginSeconds) * 1000;
  }

  /** A valid app token; concurrent callers share one fetch. */
  async get(): Promise<string> {
    if (!this.#loaded) {
      await this.#load();
    }
    if (this.#cached && this.#isFresh(this.#cached)) {
      return this.#cached.accessToken;
    }
    this.#inFlight ??= this.#fetch().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  /** Forgets a token Kick rejected (401), so the next call fetches a new one. */
  async invalidate(token: string): Promise<void> {
    if (this.#cached?.accessToken !== token) {
      return;
    }
    this.#cached = null;
    await this.#store.delete(SECRET_KEYS.appToken);
  }

  async #load(): Promise<void> {
    this.#loaded = true;
    const raw = await this.#store.get(SECRET_KEYS.appToken);
    if (!raw) {
      return;
    }
    try {
      const stored = JSON.parse(raw) as StoredAppToken;
      if (
        typeof stored.accessToken === 'string' &&
        typeof stored.expiresAtMs === 'number' &&
        stored.clientId === this.#oauth.clientId
      ) {
        this.#cached = stored;
      }
    } catch {
      // A corrupt entry is just a cache miss.
    }
  }

  async #fetch(): Promise<string> {
    const set = await this.#oauth.clientCredentials();
    const stored: StoredAppToken = {
      accessToken: set.accessToken,
      expiresAtMs: set.expiresAtMs,
      clientId: this.#oauth.clientId,
    };
    this.#cached = stored;
    await this.#store.set(SECRET_KEYS.appToken, JSON.stringify(stored));
    return stored.accessToken;
  }

  #isFresh(token: StoredAppToken): boolean {
    return token.expiresAtMs - this.#marginMs > this.#clock.now();
  }
}

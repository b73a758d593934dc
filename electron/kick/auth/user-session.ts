/**
 * The signed-in user's tokens: restored from the secret store at start, refreshed a margin before expiry
 * and once after a 401, single-flight (fifty concurrent calls with an expired token cause one refresh).
 * A refresh Kick rejects signs out with the reason; it never loops.
 */
import { parseScopeString } from '../../../shared/kick/scopes';
import type { Clock } from '../../core/clock';
import { SECRET_KEYS, type SecretStore } from '../../secrets/secret-store';
import { AuthError, KickApiError, ValidationError } from '../kick-errors';
import { WIRE_ASSUMPTIONS } from '../wire-assumptions';
import type { KickOAuth, TokenSet } from './oauth-endpoints';
import { Listeners } from '../../../shared/listeners';

export type SessionState =
  { status: 'signed-out'; reason: string | null } | { status: 'signed-in'; scopes: string[]; expiresAtMs: number };

interface StoredUserToken extends TokenSet {
  clientId: string;
}

export class UserSession {
  readonly #oauth: KickOAuth;
  readonly #store: SecretStore;
  readonly #clock: Clock;
  readonly #marginMs: number;
  readonly #listeners = new Listeners<[SessionState]>();
  #tokens: StoredUserToken | null = null;
  #signedOutReason: string | null = null;
  #refreshing: Promise<StoredUserToken> | null = null;

  constructor(deps: { oauth: KickOAuth; store: SecretStore; clock: Clock; marginSeconds?: number }) {
    this.#oauth = deps.oauth;
    this.#store = deps.store;
    this.#clock = deps.clock;
    this.#marginMs = (deps.marginSeconds ?? WIRE_ASSUMPTIONS.refreshMarginSeconds) * 1000;
  }

  /** Restores tokens saved by an earlier run; never throws (a corrupt entry means signed out). */
  async load(): Promise<void> {
    const raw = await this.#store.get(SECRET_KEYS.userToken);
    if (!raw) {
      return;
    }
    try {
      const stored = JSON.parse(raw) as StoredUserToken;
      if (
        typeof stored.accessToken === 'string' &&
        typeof stored.expiresAtMs === 'number' &&
        Array.isArray(stored.scopes) &&
        stored.clientId === this.#oauth.clientId
      ) {
        this.#tokens = stored;
        this.#emit();
      }
    } catch {
      await this.#store.delete(SECRET_KEYS.userToken);
    }
  }

  state(): SessionState {
    if (!this.#tokens) {
      return { status: 'signed-out', reason: this.#signedOutReason };
    }
    return { status: 'signed-in', scopes: [...this.#tokens.scopes], expiresAtMs: this.#tokens.expiresAtMs };
  }

  scopes(): string[] {
    return this.#tokens ? [...this.#tokens.scopes] : [];
  }

  onChange(listener: (state: SessionState) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Takes the tokens from a completed sign-in. */
  async adopt(set: TokenSet): Promise<void> {
    await this.#save({ ...set, clientId: this.#oauth.clientId });
  }

  /**
   * set_user_token ([seed §5](../../../docs/product-spec.md#5-authentication) rule 5): tokens obtained elsewhere. All four fields are required and checked
   * before anything is stored.
   */
  async setUserToken(input: {
    access_token: unknown;
    refresh_token: unknown;
    expires_in: unknown;
    scope: unknown;
  }): Promise<void> {
    const op = 'setUserToken';
    if (typeof input.access_token !== 'string' || input.access_token.length === 0) {
      throw new ValidationError(op, 'access_token', 'is required (a non-empty string)');
    }
    if (typeof input.refresh_token !== 'string' || input.refresh_token.length === 0) {
      throw new ValidationError(op, 'refresh_token', 'is required (a non-empty string)');
    }
    if (typeof input.expires_in !== 'number' || !Number.isInteger(input.expires_in) || input.expires_in <= 0) {
      throw new ValidationError(op, 'expires_in', 'is required (a positive whole number of seconds)');
    }
    if (typeof input.scope !== 'string') {
      throw new ValidationError(op, 'scope', 'is required (a space-separated string)');
    }
    await this.adopt({
      accessToken: input.access_token,
      refreshToken: input.refresh_token,
      expiresAtMs: this.#clock.now() + input.expires_in * 1000,
      scopes: parseScopeString(input.scope),
    });
  }

  /** A valid access token, refreshed first when it is within the margin of expiry. */
  async accessToken(): Promise<string> {
    const tokens = this.#requireTokens();
    if (tokens.expiresAtMs - this.#marginMs > this.#clock.now()) {
      return tokens.accessToken;
    }
    return (await this.#refresh()).accessToken;
  }

  /**
   * After Kick answered 401 to `rejected`: refresh once (joining a refresh already under way) and return
   * the new token, or throw when the session cannot be recovered.
   */
  async recoverFromUnauthorized(rejected: string): Promise<string> {
    const tokens = this.#requireTokens();
    if (tokens.accessToken !== rejected) {
      return tokens.accessToken;
    }
    return (await this.#refresh()).accessToken;
  }

  /** Revokes both tokens at Kick (best effort) and wipes them locally. */
  async signOut(reason: string | null = null): Promise<{ revoked: boolean }> {
    const tokens = this.#tokens;
    let revoked = true;
    if (tokens) {
      const results = await Promise.allSettled([
        this.#oauth.revoke(tokens.accessToken, 'access_token'),
        tokens.refreshToken ? this.#oauth.revoke(tokens.refreshToken, 'refresh_token') : Promise.resolve(),
      ]);
      revoked = results.every((r) => r.status === 'fulfilled');
    }
    await this.#clear(reason);
    return { revoked };
  }

  #requireTokens(): StoredUserToken {
    if (!this.#tokens) {
      throw new AuthError('NotSignedIn', this.#signedOutReason ?? 'Sign in with Kick first');
    }
    return this.#tokens;
  }

  #refresh(): Promise<StoredUserToken> {
    this.#refreshing ??= this.#doRefresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  async #doRefresh(): Promise<StoredUserToken> {
    const tokens = this.#requireTokens();
    if (!tokens.refreshToken) {
      await this.#clear('sign in again: the session expired and Kick gave no refresh token');
      throw new AuthError('RefreshRejected', 'sign in again: the session expired and Kick gave no refresh token');
    }
    let set: TokenSet;
    try {
      set = await this.#oauth.refresh(tokens.refreshToken);
    } catch (error) {
      // Only Kick saying no ends the session; a network failure leaves it for the next try.
      if (
        error instanceof KickApiError &&
        (error.code === 'BadRequest' || error.code === 'Unauthorized' || error.code === 'Forbidden')
      ) {
        const reason = 'sign in again: refresh token rejected';
        await this.#clear(reason);
        throw new AuthError('RefreshRejected', reason, { cause: error });
      }
      throw error;
    }
    const next: StoredUserToken = {
      ...set,
      scopes: set.scopes.length > 0 ? set.scopes : tokens.scopes,
      clientId: this.#oauth.clientId,
    };
    await this.#save(next);
    return next;
  }

  async #save(tokens: StoredUserToken): Promise<void> {
    await this.#store.set(SECRET_KEYS.userToken, JSON.stringify(tokens));
    this.#tokens = tokens;
    this.#signedOutReason = null;
    this.#emit();
  }

  async #clear(reason: string | null): Promise<void> {
    this.#tokens = null;
    this.#signedOutReason = reason;
    await this.#store.delete(SECRET_KEYS.userToken);
    this.#emit();
  }

  #emit(): void {
    this.#listeners.emit(this.state());
  }
}

/**
 * id.kick.com's token endpoints ([reference §2.2–2.4](../../../docs/kick-wire-reference.md#22-token)): code exchange, refresh, client credentials, revoke
 * and introspection. `client_secret` goes in every token request: Kick requires it even with PKCE.
 */
import { kickTokenIntrospection } from '../../../shared/kick/resource-schemas';
import type { KickTokenIntrospection } from '../../../shared/kick/resources';
import { parseScopeString } from '../../../shared/kick/scopes';
import type { Clock } from '../../core/clock';
import type { KickHttp } from '../kick-http';
import { KickApiError } from '../kick-errors';
import { readAnswer } from '../kick-response';
import { WIRE_ASSUMPTIONS } from '../wire-assumptions';

export interface AppCredentials {
  clientId: string;
  clientSecret: string;
}

/** A token response made usable: absolute expiry, scopes as a list. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  expiresAtMs: number;
  scopes: string[];
}

/** Kick documents `expires_in` as `""` in one example; libraries read a number. Assume an hour if unusable. */
const FALLBACK_LIFETIME_SECONDS = 3600;

export class KickOAuth {
  readonly #http: KickHttp;
  readonly #credentials: AppCredentials;
  readonly #clock: Clock;

  constructor(http: KickHttp, credentials: AppCredentials, clock: Clock) {
    this.#http = http;
    this.#credentials = credentials;
    this.#clock = clock;
  }

  get clientId(): string {
    return this.#credentials.clientId;
  }

  async exchangeCode(input: { code: string; redirectUri: string; codeVerifier: string }): Promise<TokenSet> {
    return this.#token('exchangeCode', {
      grant_type: 'authorization_code',
      code: input.code,
      client_id: this.#credentials.clientId,
      client_secret: this.#credentials.clientSecret,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
    });
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const set = await this.#token('refreshToken', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: this.#credentials.clientId,
      client_secret: this.#credentials.clientSecret,
    });
    // Refresh tokens are reusable since 2025-11-25, but a new one still comes back; keep the old if not.
    return { ...set, refreshToken: set.refreshToken ?? refreshToken };
  }

  async clientCredentials(): Promise<TokenSet> {
    return this.#token('clientCredentials', {
      grant_type: 'client_credentials',
      client_id: this.#credentials.clientId,
      client_secret: this.#credentials.clientSecret,
    });
  }

  async revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
    const { path, hintParam, sendInQuery, sendInBody } = WIRE_ASSUMPTIONS.revoke;
    const fields: Record<string, string> = { token, [hintParam]: hint };
    await this.#http.send({
      operation: 'revokeToken',
      host: 'auth',
      method: 'POST',
      path,
      query: sendInQuery ? Object.entries(fields) : undefined,
      form: sendInBody ? fields : {},
      retry: 'safe',
    });
  }

  /** Introspects a token at id.kick.com, falling back to the deprecated api.kick.com path on 404. */
  async introspect(token: string): Promise<KickTokenIntrospection> {
    const request = { operation: 'introspect', method: 'POST' as const, token, retry: 'safe' as const };
    let body: unknown;
    try {
      body = (await this.#http.send({ ...request, host: 'auth', path: WIRE_ASSUMPTIONS.introspect.path })).body;
    } catch (error) {
      if (!(error instanceof KickApiError) || error.code !== 'NotFound') {
        throw error;
      }
      body = (await this.#http.send({ ...request, host: 'api', path: WIRE_ASSUMPTIONS.introspect.legacyPath })).body;
    }
    return readAnswer('introspect', kickTokenIntrospection, (body as { data?: unknown } | undefined)?.data);
  }

  async #token(operation: string, form: Record<string, string>): Promise<TokenSet> {
    const res = await this.#http.send({
      operation,
      host: 'auth',
      method: 'POST',
      path: '/oauth/token',
      form,
      retry: 'never',
    });
    return parseTokenResponse(operation, res.body, this.#clock.now());
  }
}

export function parseTokenResponse(operation: string, body: unknown, nowMs: number): TokenSet {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof record.access_token !== 'string' || record.access_token.length === 0) {
    throw new KickApiError('ServerError', `${operation}: Kick's token response had no access_token`, { operation });
  }
  const raw = record.expires_in;
  const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  const lifetime = Number.isFinite(seconds) && seconds > 0 ? seconds : FALLBACK_LIFETIME_SECONDS;
  return {
    accessToken: record.access_token,
    refreshToken:
      typeof record.refresh_token === 'string' && record.refresh_token.length > 0 ? record.refresh_token : null,
    expiresAtMs: nowMs + lifetime * 1000,
    scopes: parseScopeString(typeof record.scope === 'string' ? record.scope : ''),
  };
}

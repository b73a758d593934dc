/**
 * Sends one operation: picks the token it needs, fails fast when a scope is missing, recovers once from a
 * 401 (refresh the user token or fetch a new app token), and unwraps Kick's `{data, message}` envelope.
 */
import type { AppTokenManager } from './auth/app-token';
import type { UserSession } from './auth/user-session';
import type { KickHttp, KickResponse } from './kick-http';
import { AuthError, KickApiError } from './kick-errors';
import { fillPath, type OperationName, OPERATIONS, type OperationSpec } from './operations';

export interface CallInput {
  query?: [string, string][];
  json?: unknown;
  pathParams?: Record<string, string>;
  hasIdempotencyKey?: boolean;
  signal?: AbortSignal;
}

interface ChosenToken {
  kind: 'user' | 'app' | 'none';
  token?: string;
  /** The app token stands in for a user token the streamer does not have (signed out, or without the scope). */
  fallback?: boolean;
}

export class KickApiCore {
  readonly #http: KickHttp;
  readonly #appToken: AppTokenManager | null;
  readonly #session: UserSession | null;

  constructor(deps: { http: KickHttp; appToken: AppTokenManager | null; session: UserSession | null }) {
    this.#http = deps.http;
    this.#appToken = deps.appToken;
    this.#session = deps.session;
  }

  /** Sends the operation and returns the raw response (2xx only). */
  async call(name: OperationName, input: CallInput = {}): Promise<KickResponse> {
    const spec: OperationSpec = OPERATIONS[name];
    const chosen = await this.#chooseToken(name, spec);
    const send = (token: string | undefined): Promise<KickResponse> =>
      this.#http.send({
        operation: name,
        host: spec.host,
        method: spec.method,
        path: fillPath(spec.path, input.pathParams),
        query: input.query,
        json: input.json,
        token,
        retry: spec.retry,
        hasIdempotencyKey: input.hasIdempotencyKey,
        signal: input.signal,
      });
    try {
      return await send(chosen.token);
    } catch (error) {
      if (chosen.fallback && error instanceof KickApiError && error.code === 'Forbidden') {
        throw this.#whyNotForUser(name, spec, error);
      }
      if (!(error instanceof KickApiError) || error.code !== 'Unauthorized' || !chosen.token) {
        throw error;
      }
      // One recovery only: a second 401 is reported, never looped on.
      if (chosen.kind === 'user' && this.#session) {
        return send(await this.#session.recoverFromUnauthorized(chosen.token));
      }
      if (chosen.kind === 'app' && this.#appToken) {
        await this.#appToken.invalidate(chosen.token);
        return send(await this.#appToken.get());
      }
      throw error;
    }
  }

  /** Sends the operation and returns the envelope's `data` (undefined for 204). */
  async data(name: OperationName, input: CallInput = {}): Promise<unknown> {
    const res = await this.call(name, input);
    if (res.status === 204 || res.body === undefined) {
      return undefined;
    }
    if (typeof res.body !== 'object' || res.body === null || !('data' in res.body)) {
      throw new KickApiError('ServerError', `${name}: Kick answered ${res.status} without a data envelope`, {
        operation: name,
        status: res.status,
      });
    }
    return res.body.data;
  }

  async #chooseToken(name: OperationName, spec: OperationSpec): Promise<ChosenToken> {
    if (spec.token === 'none') {
      return { kind: 'none' };
    }
    if (spec.token === 'app') {
      return { kind: 'app', token: await this.#requireAppToken(name) };
    }
    const signedIn = this.#session?.state().status === 'signed-in';
    const granted = this.#session?.scopes() ?? [];
    const hasScope = spec.scopes.length === 0 || spec.scopes.some((s) => granted.includes(s));
    if (signedIn && hasScope) {
      return { kind: 'user', token: await this.#session.accessToken() };
    }
    if (spec.token === 'any' && this.#appToken) {
      return { kind: 'app', token: await this.#appToken.get(), fallback: true };
    }
    if (!signedIn) {
      throw new AuthError('NotSignedIn', `${name} acts for the streamer: sign in with Kick first`);
    }
    throw new KickApiError(
      'MissingScope',
      `${name} needs the ${spec.scopes.join(' or ')} scope: sign in again to grant it`,
      {
        operation: name,
        details: { scopes: [...spec.scopes] },
      },
    );
  }

  /**
   * Kick refused the app token standing in for the streamer's: what it wanted was the streamer, signed in
   * with the scope. Signed out, that is "sign in", never a scope or a permission the streamer lacks.
   */
  #whyNotForUser(name: OperationName, spec: OperationSpec, refused: KickApiError): AuthError | KickApiError {
    if (this.#session?.state().status !== 'signed-in') {
      return new AuthError('NotSignedIn', `${name} acts for the streamer: sign in with Kick first`, {
        cause: refused,
      });
    }
    return new KickApiError(
      'MissingScope',
      `${name} needs the ${spec.scopes.join(' or ')} scope: sign in again to grant it`,
      {
        operation: name,
        status: refused.status,
        kickMessage: refused.kickMessage,
        cause: refused,
        details: { scopes: [...spec.scopes] },
      },
    );
  }

  async #requireAppToken(name: OperationName): Promise<string> {
    if (!this.#appToken) {
      throw new AuthError('NotConfigured', `${name} needs the app's client id and secret`);
    }
    return this.#appToken.get();
  }
}

/**
 * Which tokens came from which grant, one ledger per sandbox (created in `registerOAuthRoutes`, never a
 * module singleton):
 *
 * - a refresh token → the access tokens issued with it or minted by using it, so revoking the refresh
 *   token also revokes them ([reference §2.4](../../docs/kick-wire-reference.md#24-revoke) asks nothing less of a logout).
 *   These links live in the world (`state.grantLinks`, by digest) and are saved with it, so a restart
 *   does not break them ([sandbox notes](../../docs/sandbox.md#what-the-saved-world-keeps));
 * - an authorization code → every token descended from it, so replaying a used code revokes them all
 *   (OAuth 2.1 §4.1.3: "SHOULD revoke all tokens previously issued based on that authorization code").
 *   Codes are not saved, so neither are their families.
 */
import type { SandboxState } from '../state';
import { tokenDigest } from '../token-map';

interface Family {
  accessTokens: Set<string>;
  refreshTokens: Set<string>;
}

/** Token lineage for one sandbox: code → family of tokens, refresh token → its access tokens. */
export class GrantLedger {
  readonly #familyByCode = new Map<string, Family>();
  readonly #familyByRefresh = new Map<string, Family>();
  readonly #state: SandboxState;

  constructor(state: SandboxState) {
    this.#state = state;
  }

  /** A code was exchanged for this access + refresh token pair; they start a new family. */
  recordCodeExchange(code: string, accessToken: string, refreshToken: string): void {
    const family: Family = { accessTokens: new Set([accessToken]), refreshTokens: new Set([refreshToken]) };
    this.#familyByCode.set(code, family);
    this.#familyByRefresh.set(refreshToken, family);
    this.#link(refreshToken, accessToken);
  }

  /** `usedRefresh` minted this pair; it joins the same family and both refresh tokens own the access token. */
  recordRefresh(usedRefresh: string, accessToken: string, newRefresh: string): void {
    const family = this.#familyByRefresh.get(usedRefresh);
    if (family) {
      family.accessTokens.add(accessToken);
      family.refreshTokens.add(newRefresh);
      this.#familyByRefresh.set(newRefresh, family);
    }
    this.#link(usedRefresh, accessToken);
    this.#link(newRefresh, accessToken);
  }

  /** Every token descended from a code (empty when the code was never exchanged). */
  tokensFromCode(code: string): { accessTokens: string[]; refreshTokens: string[] } {
    const family = this.#familyByCode.get(code);
    return { accessTokens: [...(family?.accessTokens ?? [])], refreshTokens: [...(family?.refreshTokens ?? [])] };
  }

  /** The digests of the access tokens issued with, or minted by, this refresh token. */
  accessDigestsOf(refreshToken: string): string[] {
    return [...(this.#state.grantLinks.get(tokenDigest(refreshToken)) ?? [])];
  }

  #link(refreshToken: string, accessToken: string): void {
    const links = this.#state.grantLinks;
    const key = tokenDigest(refreshToken);
    let set = links.get(key);
    if (!set) {
      set = new Set();
      links.set(key, set);
    }
    set.add(tokenDigest(accessToken));
  }
}

/** Marks an access token revoked; the API's auth guard then answers 401 for it. */
export function revokeAccessToken(state: SandboxState, token: string): boolean {
  const record = state.accessTokens.get(token);
  if (!record) {
    return false;
  }
  record.revoked = true;
  return true;
}

/** Revokes a refresh token and the access tokens linked to it. */
export function revokeRefreshToken(state: SandboxState, ledger: GrantLedger, token: string): boolean {
  const record = state.refreshTokens.get(token);
  if (!record) {
    return false;
  }
  record.revoked = true;
  for (const digest of ledger.accessDigestsOf(token)) {
    const access = state.accessTokens.byDigest(digest);
    if (access) {
      access.revoked = true;
    }
  }
  return true;
}

/** Revokes every token descended from a code that is being replayed. */
export function revokeCodeDescendants(state: SandboxState, ledger: GrantLedger, code: string): void {
  const { accessTokens, refreshTokens } = ledger.tokensFromCode(code);
  for (const token of accessTokens) {
    revokeAccessToken(state, token);
  }
  for (const token of refreshTokens) {
    revokeRefreshToken(state, ledger, token);
  }
}

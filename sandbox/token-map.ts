/**
 * Tokens by their SHA-256 digest rather than by the token itself. Callers still look tokens up by the
 * token a client presents (`get(token)`), but what the map holds, and so what a saved world
 * (`persist.ts`) writes to disk, is only the digest: a world file read by someone else lets them sign in
 * as nobody ([sandbox notes](../docs/sandbox.md#what-the-saved-world-keeps)). A token restored from disk
 * has no plain text until a client presents it again; its record's `token` is filled in then.
 */
import { createHash } from 'node:crypto';

/** The hex SHA-256 digest a token is kept under. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class TokenMap<T extends { token: string }> extends Map<string, T> {
  override get(token: string): T | undefined {
    const record = super.get(tokenDigest(token));
    if (record && record.token !== token) {
      // Restored from disk with its digest only: the client just proved it holds the token.
      record.token = token;
    }
    return record;
  }

  override has(token: string): boolean {
    return super.has(tokenDigest(token));
  }

  override set(token: string, record: T): this {
    return super.set(tokenDigest(token), record);
  }

  override delete(token: string): boolean {
    return super.delete(tokenDigest(token));
  }

  /** The records with the digest each is kept under (what a saved world writes). */
  digests(): [string, T][] {
    return [...super.entries()];
  }

  /** The record kept under `digest` (a grant link names tokens by digest only). */
  byDigest(digest: string): T | undefined {
    return super.get(digest);
  }

  /** Puts back a record saved under `digest` (its plain token is not known). */
  restore(digest: string, record: T): void {
    super.set(digest, record);
  }
}

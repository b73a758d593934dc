/**
 * PKCE checks (RFC 7636), as Kick requires for the authorization-code grant ([reference §2.1](../../docs/kick-wire-reference.md#21-authorize), [§2.2](../../docs/kick-wire-reference.md#22-token)): the
 * challenge is base64url(SHA-256(verifier)) without padding, and only the S256 method is accepted.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: a verifier is at least 43 characters. */
export const CODE_VERIFIER_MIN_LENGTH = 43;
/** RFC 7636 §4.1: a verifier is at most 128 characters. */
export const CODE_VERIFIER_MAX_LENGTH = 128;

/** The only `code_challenge_method` Kick accepts. */
export const PKCE_METHOD = 'S256';

/** RFC 7636 §4.1 `unreserved` characters: ALPHA / DIGIT / "-" / "." / "_" / "~". */
const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]+$/;

/** A SHA-256 digest in base64url without padding is always 43 characters. */
const S256_CHALLENGE_PATTERN = /^[A-Za-z0-9\-_]{43}$/;

/** Why a verifier is malformed, or null when it is well formed. */
export function verifierProblem(verifier: string): string | null {
  if (verifier.length < CODE_VERIFIER_MIN_LENGTH) {
    return `must be at least ${CODE_VERIFIER_MIN_LENGTH} characters`;
  }
  if (verifier.length > CODE_VERIFIER_MAX_LENGTH) {
    return `must be at most ${CODE_VERIFIER_MAX_LENGTH} characters`;
  }
  if (!VERIFIER_PATTERN.test(verifier)) {
    return 'must use only the characters A-Z a-z 0-9 - . _ ~';
  }
  return null;
}

/** Whether a `code_challenge` can be an S256 challenge at all. */
export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE_PATTERN.test(challenge);
}

/** base64url(SHA-256(verifier)) without padding. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether the verifier hashes to the stored challenge; compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const expected = Buffer.from(s256Challenge(verifier));
  const actual = Buffer.from(challenge);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

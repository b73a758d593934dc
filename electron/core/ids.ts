import { randomBytes, randomUUID } from 'node:crypto';

/** Crockford base32, the alphabet ULIDs use. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID (26 characters: 48-bit millisecond time, 80 random bits), the id format Kick uses for
 * subscriptions, rewards, redemptions and webhook messages.
 */
export function createUlid(nowMs: number): string {
  let time = '';
  let t = Math.floor(nowMs);
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) {
    rand += CROCKFORD[bytes[i]! % 32];
  }
  return time + rand;
}

const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function isUlid(value: string): boolean {
  return ULID_PATTERN.test(value);
}

export function createUuid(): string {
  return randomUUID();
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** An opaque random token (URL-safe base64), for access/refresh tokens and codes. */
export function createOpaqueToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

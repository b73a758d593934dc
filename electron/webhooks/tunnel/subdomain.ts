/**
 * One localtunnel subdomain per install, kept for good: the webhook URL is pasted once into Kick's
 * developer dashboard ([reference §5.1](../../../docs/kick-wire-reference.md#51-configuration-and-delivery); there is no per-subscription URL), so a URL that changed on every
 * start would silently stop deliveries. The caller persists what `createInstallSubdomain` returns (with its
 * install id) and passes it back on every start.
 */
import { AppError } from '../../../shared/errors';

/**
 * What localtunnel servers accept: 4–63 characters, lowercase letters and digits (the server answers 403
 * "Invalid subdomain" otherwise). Hyphens are allowed by some servers but not all, so we never use them.
 */
const SUBDOMAIN = /^[a-z0-9]{4,63}$/;

/** Recognisable in the dashboard; the random tail is what makes it ours. */
const PREFIX = 'greenroom';

/** RFC 4648 base32 in lowercase: only letters and digits, 5 bits per character. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 10 bytes → 16 characters, 80 bits: unguessable and practically never taken on a shared server. */
const RANDOM_BYTES = 10;

/** Whether `value` is a subdomain a localtunnel server accepts. */
export function isValidSubdomain(value: unknown): value is string {
  return typeof value === 'string' && SUBDOMAIN.test(value);
}

/** Returns `value` if valid, else throws `InvalidArgument` naming the rule. */
export function assertValidSubdomain(value: unknown): string {
  if (isValidSubdomain(value)) {
    return value;
  }
  throw new AppError('InvalidArgument', 'tunnel subdomain must be 4–63 lowercase letters or digits', {
    details: { field: 'subdomain' },
  });
}

/**
 * A fresh subdomain for a new install, e.g. `greenroomk3vq7xw2mzb4d5ha`. `randomBytes` is injected (Node's
 * `crypto.randomBytes` in production) so tests can pin it.
 */
export function createInstallSubdomain(randomBytes: (size: number) => Uint8Array): string {
  const bytes = randomBytes(RANDOM_BYTES);
  if (bytes.length < RANDOM_BYTES) {
    throw new RangeError(`randomBytes gave ${bytes.length} bytes, need ${RANDOM_BYTES}`);
  }
  return assertValidSubdomain(PREFIX + base32(bytes.subarray(0, RANDOM_BYTES)));
}

function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) {
    out += ALPHABET[(buffer << (5 - bits)) & 31];
  }
  return out;
}

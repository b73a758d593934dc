/**
 * A delivery's message id as a 128-bit key (four uint32 words, most significant first), the unit the id
 * memory stores: 16 bytes instead of a JavaScript string and a Map entry (~100 bytes).
 *
 * Kick's message ids are ULIDs ([reference §5.2](../../../docs/kick-wire-reference.md#52-headers-on-event-webhooks)): 26 Crockford base32 characters holding exactly
 * 128 bits, so a canonical ULID is decoded, not hashed, and two different ids never share a key. Anything
 * else takes the first 128 bits of its SHA-256 (a false match is about 2^-64 likely after 2^32 ids). A
 * ULID starts with its 48-bit millisecond time, so keys sort by time: a run of ids seen in one hour
 * covers a narrow key range, which is what lets a lookup skip most runs without reading them.
 */
import { hash } from 'node:crypto';

/** Words per key. */
export const KEY_WORDS = 4;
/** Bytes per key, in memory and on disk. */
export const KEY_BYTES = 16;

const ULID_LENGTH = 26;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Each ASCII character's Crockford value, or -1 where a canonical ULID may not have it (lower case, I, L, O, U). */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < CROCKFORD.length; i++) {
  DIGIT[CROCKFORD.charCodeAt(i)] = i;
}

/**
 * Writes `messageId`'s key into `out` at word `at`. Every delivery's id and event key pass here several times
 * (claimed, then remembered), so the ULID is checked and decoded in one pass over its characters, and anything
 * else is hashed one-shot, with no regular expression and no Hash object per call; the keys are the same as
 * ever, since run files on disk hold them.
 */
export function writeIdKey(messageId: string, out: Uint32Array, at: number): void {
  if (!decodeUlid(messageId, out, at)) {
    const digest = hash('sha256', messageId, 'buffer');
    for (let w = 0; w < KEY_WORDS; w++) {
      out[at + w] = digest.readUInt32BE(w * 4);
    }
  }
}

/**
 * A canonical ULID (upper-case Crockford base32, first character 0–7 so the value fits 128 bits) as its 128
 * bits, most significant first: the four words shifted left five bits per character. False, with `out` left
 * unspecified, when `id` is not one.
 */
function decodeUlid(id: string, out: Uint32Array, at: number): boolean {
  if (id.length !== ULID_LENGTH) {
    return false;
  }
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let w3 = 0;
  for (let i = 0; i < ULID_LENGTH; i++) {
    const code = id.charCodeAt(i);
    const value = code < 128 ? DIGIT[code]! : -1;
    if (value < 0 || (i === 0 && value > 7)) {
      return false;
    }
    w0 = ((w0 << 5) | (w1 >>> 27)) >>> 0;
    w1 = ((w1 << 5) | (w2 >>> 27)) >>> 0;
    w2 = ((w2 << 5) | (w3 >>> 27)) >>> 0;
    w3 = ((w3 << 5) | value) >>> 0;
  }
  out[at] = w0;
  out[at + 1] = w1;
  out[at + 2] = w2;
  out[at + 3] = w3;
  return true;
}

/** Orders key `a` at word `ai` against key `b` at word `bi`: negative, 0 or positive. */
export function compareKeys(a: Uint32Array, ai: number, b: Uint32Array, bi: number): number {
  for (let w = 0; w < KEY_WORDS; w++) {
    const x = a[ai + w]!;
    const y = b[bi + w]!;
    if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

/**
 * Index of `key` (at word `ki`) among the `count` sorted keys of `keys`, or -1. Keys are compared in place,
 * so a lookup allocates nothing.
 */
export function searchKeys(keys: Uint32Array, count: number, key: Uint32Array, ki: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const order = compareKeys(keys, mid * KEY_WORDS, key, ki);
    if (order === 0) {
      return mid;
    }
    if (order < 0) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

/**
 * Sorts the first `count` packed keys of `keys` ascending, in place (heapsort: no allocation, and
 * n·log n whatever the order). Sorting through a JavaScript index array made each seal allocate several
 * times the run's size on the heap, which the soak saw as resident memory that never came back.
 */
export function sortKeysInPlace(keys: Uint32Array, count: number): void {
  for (let root = (count >>> 1) - 1; root >= 0; root--) {
    siftDown(keys, root, count);
  }
  for (let end = count - 1; end > 0; end--) {
    swapKeys(keys, 0, end);
    siftDown(keys, 0, end);
  }
}

function siftDown(keys: Uint32Array, root: number, count: number): void {
  for (;;) {
    let child = 2 * root + 1;
    if (child >= count) {
      return;
    }
    if (child + 1 < count && compareKeys(keys, child * KEY_WORDS, keys, (child + 1) * KEY_WORDS) < 0) {
      child++;
    }
    if (compareKeys(keys, root * KEY_WORDS, keys, child * KEY_WORDS) >= 0) {
      return;
    }
    swapKeys(keys, root, child);
    root = child;
  }
}

function swapKeys(keys: Uint32Array, a: number, b: number): void {
  for (let w = 0; w < KEY_WORDS; w++) {
    const x = keys[a * KEY_WORDS + w]!;
    keys[a * KEY_WORDS + w] = keys[b * KEY_WORDS + w]!;
    keys[b * KEY_WORDS + w] = x;
  }
}

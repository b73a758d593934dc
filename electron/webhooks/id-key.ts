/**
 * A delivery's message id as a 128-bit key (four uint32 words, most significant first), the unit the id
 * memory stores: 16 bytes instead of a JavaScript string and a Map entry (~100 bytes).
 *
 * Kick's message ids are ULIDs ([reference §5.2](../../docs/kick-wire-reference.md#52-headers-on-event-webhooks)): 26 Crockford base32 characters holding exactly
 * 128 bits, so a canonical ULID is decoded, not hashed, and two different ids never share a key. Anything
 * else takes the first 128 bits of its SHA-256 (a false match is about 2^-64 likely after 2^32 ids). A
 * ULID starts with its 48-bit millisecond time, so keys sort by time: a run of ids seen in one hour
 * covers a narrow key range, which is what lets a lookup skip most runs without reading them.
 */
import { createHash } from 'node:crypto';

/** Words per key. */
export const KEY_WORDS = 4;
/** Bytes per key, in memory and on disk. */
export const KEY_BYTES = 16;

/** Canonical ULID: upper-case Crockford base32, first character 0–7 (so the value fits 128 bits). */
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DIGIT = new Int8Array(128);
for (let i = 0; i < CROCKFORD.length; i++) {
  DIGIT[CROCKFORD.charCodeAt(i)] = i;
}

/** Writes `messageId`'s key into `out` at word `at`. */
export function writeIdKey(messageId: string, out: Uint32Array, at: number): void {
  if (ULID.test(messageId)) {
    decodeUlid(messageId, out, at);
    return;
  }
  const digest = createHash('sha256').update(messageId, 'utf8').digest();
  for (let w = 0; w < KEY_WORDS; w++) {
    out[at + w] = digest.readUInt32BE(w * 4);
  }
}

/** 3 bits from the first character, then 5 from each of the other 25: 128 bits, most significant first. */
function decodeUlid(id: string, out: Uint32Array, at: number): void {
  out.fill(0, at, at + KEY_WORDS);
  let bit = 0;
  for (let i = 0; i < id.length; i++) {
    const width = i === 0 ? 3 : 5;
    const value = DIGIT[id.charCodeAt(i)]!;
    for (let b = width - 1; b >= 0; b--, bit++) {
      if ((value >> b) & 1) {
        out[at + (bit >>> 5)]! |= 1 << (31 - (bit & 31));
      }
    }
  }
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

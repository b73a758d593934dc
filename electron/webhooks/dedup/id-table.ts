/**
 * The id memory's open generation: a set of 128-bit keys in one typed array (open addressing, linear
 * probing), so inserting and finding an id costs no allocation and 17 bytes per slot. It grows by doubling
 * at half full; the id memory seals it into a sorted run long before it gets large. Emptied at each seal,
 * it keeps its grown arrays for the next generation: growing again from 1,024 slots at every seal
 * allocated and dropped megabytes a run, and the allocator's heap kept the holes as resident memory
 * (docs/decisions.md, "The id memory allocates once per run").
 */
import { KEY_WORDS } from './id-key';

const INITIAL_SLOTS = 1024;

/** A growable hash set of keys. */
export class KeyTable {
  #slots = INITIAL_SLOTS;
  #keys = new Uint32Array(INITIAL_SLOTS * KEY_WORDS);
  #used = new Uint8Array(INITIAL_SLOTS);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Bytes held by the table's arrays. */
  get bytes(): number {
    return this.#keys.byteLength + this.#used.byteLength;
  }

  has(key: Uint32Array, at: number): boolean {
    return this.#find(key, at) >= 0;
  }

  /** Adds the key; false when it was already there. */
  add(key: Uint32Array, at: number): boolean {
    const slot = this.#find(key, at);
    if (slot >= 0) {
      return false;
    }
    if ((this.#count + 1) * 2 > this.#slots) {
      this.#grow();
    }
    this.#place(key, at);
    this.#count++;
    return true;
  }

  /** Every key, unsorted, packed `KEY_WORDS` words each. */
  keys(): Uint32Array {
    const out = new Uint32Array(this.#count * KEY_WORDS);
    let n = 0;
    for (let slot = 0; slot < this.#slots; slot++) {
      if (this.#used[slot]) {
        out.set(this.#keys.subarray(slot * KEY_WORDS, (slot + 1) * KEY_WORDS), n * KEY_WORDS);
        n++;
      }
    }
    return out;
  }

  /** Empties the table, keeping its arrays (see the module comment). */
  clear(): void {
    this.#used.fill(0);
    this.#count = 0;
  }

  /** The slot holding the key, or -(free slot + 1) where it would go. */
  #find(key: Uint32Array, at: number): number {
    const mask = this.#slots - 1;
    let slot = hashKey(key, at) & mask;
    for (;;) {
      if (!this.#used[slot]) {
        return -(slot + 1);
      }
      const base = slot * KEY_WORDS;
      if (
        this.#keys[base] === key[at] &&
        this.#keys[base + 1] === key[at + 1] &&
        this.#keys[base + 2] === key[at + 2] &&
        this.#keys[base + 3] === key[at + 3]
      ) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
  }

  #place(key: Uint32Array, at: number): void {
    const slot = -this.#find(key, at) - 1;
    this.#keys.set(key.subarray(at, at + KEY_WORDS), slot * KEY_WORDS);
    this.#used[slot] = 1;
  }

  #grow(): void {
    const keys = this.#keys;
    const used = this.#used;
    this.#slots *= 2;
    this.#keys = new Uint32Array(this.#slots * KEY_WORDS);
    this.#used = new Uint8Array(this.#slots);
    for (let slot = 0; slot < used.length; slot++) {
      if (used[slot]) {
        this.#place(keys, slot * KEY_WORDS);
      }
    }
  }
}

/**
 * Mixes the two low words, which hold a ULID's 80 random bits (its top words are mostly time and would
 * cluster), or any 64 bits of a hashed id.
 */
function hashKey(key: Uint32Array, at: number): number {
  let h = Math.imul(key[at + 3]! ^ 0x9e3779b9, 0x85ebca6b);
  h ^= Math.imul(key[at + 2]!, 0xc2b2ae35);
  return (h ^ (h >>> 15)) >>> 0;
}

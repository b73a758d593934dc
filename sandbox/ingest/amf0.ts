/**
 * AMF0, the value encoding of RTMP's commands and data messages ([the ingest](../../docs/sandbox.md#kicks-ingest-in-the-sandbox)).
 * Only the types a publishing client sends: number, boolean, string, long string, object, null,
 * undefined, ECMA array and strict array. Anything else (references, dates, XML, typed objects, AMF3) is
 * refused, as is a value nested deeper than `maxDepth` or holding more than `maxItems` values in all:
 * whoever reaches the port decides these bytes.
 */

/** A decoded AMF0 value. Objects and ECMA arrays come back as plain objects without a prototype. */
export type AmfValue = number | boolean | string | null | undefined | AmfObject | AmfValue[] | EcmaArray;
export interface AmfObject {
  [key: string]: AmfValue;
}

/** An ECMA (associative) array: what `@setDataFrame` carries its metadata in. Encoded with marker 0x08. */
export class EcmaArray {
  constructor(readonly entries: AmfObject) {}
}

const MARKER = {
  number: 0x00,
  boolean: 0x01,
  string: 0x02,
  object: 0x03,
  null: 0x05,
  undefined: 0x06,
  ecmaArray: 0x08,
  objectEnd: 0x09,
  strictArray: 0x0a,
  longString: 0x0c,
} as const;

export interface Amf0Limits {
  /** Objects and arrays inside each other; a real command is two or three deep. */
  maxDepth: number;
  /** Values in one decode, counted across all nesting; a real command holds a few dozen. */
  maxItems: number;
}

export const AMF0_LIMITS: Amf0Limits = { maxDepth: 8, maxItems: 4096 };

/** The bytes are not AMF0 this decoder accepts; the message says what and where. */
export class Amf0Error extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Amf0Error';
  }
}

/** Decodes every value in `bytes`, in order (a command is a sequence of values). */
export function decodeAmf0(bytes: Buffer, limits: Amf0Limits = AMF0_LIMITS): AmfValue[] {
  const reader = new Reader(bytes, limits);
  const values: AmfValue[] = [];
  while (reader.offset < bytes.length) {
    values.push(reader.value(0));
  }
  return values;
}

class Reader {
  offset = 0;
  #items = 0;

  constructor(
    private readonly bytes: Buffer,
    private readonly limits: Amf0Limits,
  ) {}

  #need(n: number): void {
    if (this.offset + n > this.bytes.length) {
      throw new Amf0Error(`AMF0 value cut short at byte ${this.offset} (needs ${n} more)`);
    }
  }

  #u8(): number {
    this.#need(1);
    return this.bytes.readUInt8(this.offset++);
  }

  #u16(): number {
    this.#need(2);
    const v = this.bytes.readUInt16BE(this.offset);
    this.offset += 2;
    return v;
  }

  #u32(): number {
    this.#need(4);
    const v = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return v;
  }

  #utf8(length: number): string {
    this.#need(length);
    const s = this.bytes.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return s;
  }

  value(depth: number): AmfValue {
    if (++this.#items > this.limits.maxItems) {
      throw new Amf0Error(`AMF0 holds more than ${this.limits.maxItems} values`);
    }
    const marker = this.#u8();
    switch (marker) {
      case MARKER.number: {
        this.#need(8);
        const v = this.bytes.readDoubleBE(this.offset);
        this.offset += 8;
        return v;
      }
      case MARKER.boolean:
        return this.#u8() !== 0;
      case MARKER.string:
        return this.#utf8(this.#u16());
      case MARKER.longString:
        return this.#utf8(this.#u32());
      case MARKER.null:
        return null;
      case MARKER.undefined:
        return undefined;
      case MARKER.object:
        return this.#properties(depth + 1);
      case MARKER.ecmaArray:
        // The count is a hint only (encoders get it wrong); the entries end with the object-end marker.
        this.#u32();
        return new EcmaArray(this.#properties(depth + 1));
      case MARKER.strictArray: {
        const count = this.#u32();
        this.#deeper(depth + 1);
        // Each entry takes at least one byte: a count past the bytes left is a lie, refused before looping.
        this.#need(count);
        const items: AmfValue[] = [];
        for (let i = 0; i < count; i++) {
          items.push(this.value(depth + 1));
        }
        return items;
      }
      default:
        throw new Amf0Error(`AMF0 type 0x${marker.toString(16).padStart(2, '0')} is not accepted`);
    }
  }

  #deeper(depth: number): void {
    if (depth > this.limits.maxDepth) {
      throw new Amf0Error(`AMF0 nests deeper than ${this.limits.maxDepth}`);
    }
  }

  #properties(depth: number): AmfObject {
    this.#deeper(depth);
    const object = Object.create(null) as AmfObject;
    for (;;) {
      const key = this.#utf8(this.#u16());
      if (key === '') {
        if (this.#u8() !== MARKER.objectEnd) {
          throw new Amf0Error(`AMF0 object has an empty key at byte ${this.offset - 1}`);
        }
        return object;
      }
      object[key] = this.value(depth);
    }
  }
}

/** Encodes values in order. Strings over 65,535 UTF-8 bytes become long strings. */
export function encodeAmf0(...values: AmfValue[]): Buffer {
  const parts: Buffer[] = [];
  for (const value of values) {
    encodeValue(value, parts);
  }
  return Buffer.concat(parts);
}

function byte(n: number): Buffer {
  return Buffer.from([n]);
}

function encodeKey(key: string, parts: Buffer[]): void {
  const bytes = Buffer.from(key, 'utf8');
  if (bytes.length > 0xffff) {
    throw new Amf0Error('AMF0 object key longer than 65,535 bytes');
  }
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  parts.push(length, bytes);
}

function encodeProperties(object: AmfObject, parts: Buffer[]): void {
  for (const [key, value] of Object.entries(object)) {
    encodeKey(key, parts);
    encodeValue(value, parts);
  }
  parts.push(Buffer.from([0, 0, MARKER.objectEnd]));
}

function encodeValue(value: AmfValue, parts: Buffer[]): void {
  if (typeof value === 'number') {
    const b = Buffer.alloc(9);
    b.writeUInt8(MARKER.number);
    b.writeDoubleBE(value, 1);
    parts.push(b);
  } else if (typeof value === 'boolean') {
    parts.push(Buffer.from([MARKER.boolean, value ? 1 : 0]));
  } else if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    const long = bytes.length > 0xffff;
    const head = Buffer.alloc(long ? 5 : 3);
    head.writeUInt8(long ? MARKER.longString : MARKER.string);
    if (long) {
      head.writeUInt32BE(bytes.length, 1);
    } else {
      head.writeUInt16BE(bytes.length, 1);
    }
    parts.push(head, bytes);
  } else if (value === null) {
    parts.push(byte(MARKER.null));
  } else if (value === undefined) {
    parts.push(byte(MARKER.undefined));
  } else if (Array.isArray(value)) {
    const head = Buffer.alloc(5);
    head.writeUInt8(MARKER.strictArray);
    head.writeUInt32BE(value.length, 1);
    parts.push(head);
    value.forEach((item) => encodeValue(item, parts));
  } else if (value instanceof EcmaArray) {
    const head = Buffer.alloc(5);
    head.writeUInt8(MARKER.ecmaArray);
    head.writeUInt32BE(Object.keys(value.entries).length, 1);
    parts.push(head);
    encodeProperties(value.entries, parts);
  } else {
    parts.push(byte(MARKER.object));
    encodeProperties(value, parts);
  }
}

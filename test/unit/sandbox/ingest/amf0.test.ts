import { describe, expect, it } from 'vitest';
import { type AmfValue, Amf0Error, decodeAmf0, EcmaArray, encodeAmf0 } from '../../../../sandbox/ingest/amf0';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('AMF0', () => {
  it('encodes each type as the spec lays it out', () => {
    expect(encodeAmf0(1.5)).toEqual(hex('00 3ff8000000000000'));
    expect(encodeAmf0(true, false)).toEqual(hex('0101 0100'));
    expect(encodeAmf0('ab')).toEqual(hex('02 0002 6162'));
    expect(encodeAmf0(null, undefined)).toEqual(hex('05 06'));
    expect(encodeAmf0({ a: 1 })).toEqual(hex('03 0001 61 00 3ff0000000000000 000009'));
    expect(encodeAmf0(new EcmaArray({ a: 'x' }))).toEqual(hex('08 00000001 0001 61 02 0001 78 000009'));
    expect(encodeAmf0([true])).toEqual(hex('0a 00000001 0101'));
    const long = 'é'.repeat(40_000);
    const bytes = encodeAmf0(long);
    expect(bytes[0]).toBe(0x0c);
    expect(bytes.readUInt32BE(1)).toBe(80_000);
  });

  it('decodes what it encodes, a command as OBS sends it included', () => {
    const values: AmfValue[] = [
      'connect',
      1,
      { app: 'app', type: 'nonprivate', tcUrl: 'rtmp://127.0.0.1:1935/app', nested: { list: [1, 'two', null] } },
      null,
      undefined,
      -0.25,
      true,
      'ü'.repeat(70_000),
    ];
    expect(decodeAmf0(encodeAmf0(...values))).toEqual(values);
    const [meta] = decodeAmf0(encodeAmf0(new EcmaArray({ width: 1280, encoder: 'obs-output module' })));
    expect(meta).toBeInstanceOf(EcmaArray);
    expect((meta as EcmaArray).entries).toEqual({ width: 1280, encoder: 'obs-output module' });
  });

  it('gives objects no prototype, so a __proto__ key is only a key', () => {
    const bytes = hex('03 0009 5f5f70726f746f5f5f 03 0001 78 0101 000009 000009');
    const [object] = decodeAmf0(bytes) as [Record<string, unknown>];
    expect(Object.getPrototypeOf(object)).toBeNull();
    expect(Object.keys(object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('ignores an ECMA array count that disagrees with its entries', () => {
    const [value] = decodeAmf0(hex('08 000003e8 0001 61 0101 000009'));
    expect((value as EcmaArray).entries).toEqual({ a: true });
  });

  it.each([
    ['a number cut short', '00 3ff0'],
    ['a string longer than its bytes', '02 0010 6162'],
    ['a long string longer than its bytes', '0c ffffffff 61'],
    ['an object without its end', '03 0001 61 0101'],
    ['an empty key without the end marker', '03 0000 05'],
    ['a strict array claiming more entries than bytes', '0a ffffffff 05'],
    ['a reference', '07 0001'],
    ['a date', '0b 0000000000000000 0000'],
    ['an AMF3 switch', '11 01'],
    ['an unsupported marker', '0d'],
  ])('refuses %s', (_, bytes) => {
    expect(() => decodeAmf0(hex(bytes))).toThrow(Amf0Error);
  });

  it('refuses nesting deeper than the cap, and accepts it at the cap', () => {
    const nest = (depth: number): Buffer =>
      Buffer.concat([
        ...Array.from({ length: depth }, (_, i) => (i === 0 ? hex('03') : hex('0001 61 03'))),
        ...Array.from({ length: depth }, (_, i) => (i === 0 ? hex('000009') : hex('000009'))),
      ]);
    expect(() => decodeAmf0(nest(8), { maxDepth: 8, maxItems: 100 })).not.toThrow();
    expect(() => decodeAmf0(nest(9), { maxDepth: 8, maxItems: 100 })).toThrow(/nests deeper than 8/);
    const arrays = Buffer.concat([...Array.from({ length: 9 }, () => hex('0a 00000001')), hex('05')]);
    expect(() => decodeAmf0(arrays, { maxDepth: 8, maxItems: 100 })).toThrow(/nests deeper than 8/);
  });

  it('refuses more values than the cap, counted across nesting', () => {
    const flat = encodeAmf0(...Array.from({ length: 50 }, () => null));
    expect(decodeAmf0(flat, { maxDepth: 8, maxItems: 50 })).toHaveLength(50);
    expect(() => decodeAmf0(flat, { maxDepth: 8, maxItems: 49 })).toThrow(/more than 49 values/);
    const inArray = encodeAmf0(Array.from({ length: 60 }, () => 0));
    expect(() => decodeAmf0(inArray, { maxDepth: 8, maxItems: 50 })).toThrow(/more than 50 values/);
  });
});

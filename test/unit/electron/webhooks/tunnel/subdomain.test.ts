import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../../../shared/errors';
import {
  assertValidSubdomain,
  createInstallSubdomain,
  isValidSubdomain,
} from '../../../../../electron/webhooks/tunnel/subdomain';

describe('createInstallSubdomain', () => {
  it('turns 10 random bytes into "greenroom" plus 16 base32 characters', () => {
    const zeros = createInstallSubdomain((n) => new Uint8Array(n));
    const ones = createInstallSubdomain((n) => new Uint8Array(n).fill(0xff));

    expect(zeros).toBe('greenroomaaaaaaaaaaaaaaaa');
    expect(ones).toBe('greenroom7777777777777777');
  });

  it('encodes every bit, so different bytes give different subdomains', () => {
    const bytes = Uint8Array.from([0x00, 0x44, 0x32, 0x14, 0xc7, 0x42, 0x54, 0xb6, 0x35, 0xcf]);
    // RFC 4648 base32 of these bytes is "ABCDEFGHIJKLMNOP".
    expect(createInstallSubdomain(() => bytes)).toBe('greenroomabcdefghijklmnop');
  });

  it('asks for exactly 10 bytes and refuses fewer', () => {
    const asked: number[] = [];
    createInstallSubdomain((n) => {
      asked.push(n);
      return new Uint8Array(n);
    });
    expect(asked).toEqual([10]);
    expect(() => createInstallSubdomain(() => new Uint8Array(9))).toThrow(RangeError);
  });

  it('gives valid, distinct subdomains from real randomness', () => {
    const made = new Set(Array.from({ length: 200 }, () => createInstallSubdomain(randomBytes)));
    expect(made.size).toBe(200);
    for (const subdomain of made) {
      expect(isValidSubdomain(subdomain)).toBe(true);
    }
  });
});

describe('isValidSubdomain / assertValidSubdomain', () => {
  it.each(['abcd', 'greenroom2x', 'a'.repeat(63), '0000'])('accepts %s', (value) => {
    expect(isValidSubdomain(value)).toBe(true);
    expect(assertValidSubdomain(value)).toBe(value);
  });

  it.each(['abc', 'a'.repeat(64), 'Greenroom', 'green-room', 'green_room', 'greenroom.x', ' abcd', '', 42, null])(
    'refuses %j',
    (value) => {
      expect(isValidSubdomain(value)).toBe(false);
      let error: unknown;
      try {
        assertValidSubdomain(value);
      } catch (caught) {
        error = caught;
      }
      expect(isAppError(error) && error.code).toBe('InvalidArgument');
    },
  );
});

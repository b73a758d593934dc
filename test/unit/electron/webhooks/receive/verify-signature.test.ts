/**
 * The signature check ([reference §5.3](../../../../../docs/kick-wire-reference.md#53-signature-algorithm)) against signatures made by Node's signer and the sandbox's, and
 * against every way a signature or a signed part can be wrong.
 */
import { constants, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../../../sandbox/webhooks/sign';
import {
  decodeCanonicalBase64,
  signatureLength,
  signedBytes,
  verifyKickSignature,
} from '../../../../../electron/webhooks/receive/verify-signature';
import { createTestKey, signDelivery } from '../../../../helpers/webhook-signing';

const key = createTestKey();
const otherKey = createTestKey();
const id = '01JQR8ZK5YB7V1N2C3D4E5F6G7';
const ts = '2025-04-01T07:56:19Z';
// Go's encoder escapes "<" as \u003c, so re-serialising this in JavaScript changes the bytes.
const body = Buffer.from('{"message_id":"m1","content":"hello \\u003c3 [emote:37226:KEKW] ünïcödé"}', 'utf8');
const signature = signDelivery(id, ts, body, key.privateKey);

function verifies(
  overrides: Partial<{ messageId: string; timestamp: string; body: Buffer; signature: string }>,
): boolean {
  return verifyKickSignature({ messageId: id, timestamp: ts, body, signature, ...overrides }, key.publicKey);
}

describe('verifyKickSignature', () => {
  it('accepts a delivery signed over id.timestamp.body with the matching key', () => {
    expect(verifies({})).toBe(true);
  });

  it('accepts what the sandbox signer produces (two independent signers agree)', () => {
    const sandboxSig = signWebhook({ messageId: id, timestamp: ts, body, privateKey: key.privateKey });
    expect(sandboxSig).toBe(signature); // PKCS#1 v1.5 is deterministic
    expect(verifies({ signature: sandboxSig })).toBe(true);
  });

  it('rejects a signature made by another key', () => {
    expect(verifies({ signature: signDelivery(id, ts, body, otherKey.privateKey) })).toBe(false);
  });

  it('rejects when any signed part changes by one byte', () => {
    for (let i = 0; i < body.length; i += 7) {
      const changed = Buffer.from(body);
      changed[i] = changed[i]! ^ 0x01;
      expect(verifies({ body: changed })).toBe(false);
    }
    expect(verifies({ body: Buffer.concat([body, Buffer.from(' ')]) })).toBe(false);
    expect(verifies({ body: body.subarray(0, body.length - 1) })).toBe(false);
    expect(verifies({ messageId: `${id.slice(0, -1)}8` })).toBe(false);
    expect(verifies({ timestamp: '2025-04-01T07:56:20Z' })).toBe(false);
  });

  it('rejects re-serialised JSON even when it means the same', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))), 'utf8');
    expect(reserialised.equals(body)).toBe(false);
    expect(verifies({ body: reserialised })).toBe(false);
  });

  it('signs exactly id, ".", timestamp, ".", then the body bytes', () => {
    expect(signedBytes(id, ts, body).equals(Buffer.concat([Buffer.from(`${id}.${ts}.`), body]))).toBe(true);
  });

  it('rejects signature spellings that are not canonical base64', () => {
    const spellings = [
      signature.replace(/=+$/, ''), // padding dropped
      `${signature.slice(0, 100)}\n${signature.slice(100)}`, // whitespace inside
      ` ${signature}`,
      signature.replace(/\+/g, '-').replace(/\//g, '_'), // URL-safe alphabet
      `${signature}==`,
      '',
    ];
    for (const spelling of spellings) {
      if (spelling === signature) {
        continue;
      }
      expect(verifies({ signature: spelling }), JSON.stringify(spelling)).toBe(false);
    }
  });

  it('rejects a signature whose decoded length is not the modulus size', () => {
    const raw = Buffer.from(signature, 'base64');
    expect(raw.length).toBe(256);
    expect(verifies({ signature: raw.subarray(0, 255).toString('base64') })).toBe(false);
    expect(verifies({ signature: Buffer.concat([Buffer.alloc(1), raw]).toString('base64') })).toBe(false);
    expect(verifies({ signature: Buffer.concat([raw, Buffer.alloc(3)]).toString('base64') })).toBe(false);
  });

  it('rejects flipped signature bits', () => {
    const raw = Buffer.from(signature, 'base64');
    for (const bit of [0, 7, 100, 1000, 2047]) {
      const flipped = Buffer.from(raw);
      flipped[bit >> 3] = flipped[bit >> 3]! ^ (1 << (bit & 7));
      expect(verifies({ signature: flipped.toString('base64') })).toBe(false);
    }
  });

  it('rejects PSS padding and other digests: the algorithm is fixed, not negotiated', () => {
    const data = signedBytes(id, ts, body);
    const pss = sign('sha256', data, { key: key.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING });
    expect(verifies({ signature: pss.toString('base64') })).toBe(false);
    const sha1 = sign('sha1', data, key.privateKey);
    expect(verifies({ signature: sha1.toString('base64') })).toBe(false);
    const sha512 = sign('sha512', data, key.privateKey);
    expect(verifies({ signature: sha512.toString('base64') })).toBe(false);
  });

  it('returns false (never throws) for a non-RSA key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(verifyKickSignature({ messageId: id, timestamp: ts, body, signature }, ec.publicKey)).toBe(false);
    // Not a key object at all, from an untyped caller.
    expect(verifyKickSignature({ messageId: id, timestamp: ts, body, signature }, 'a PEM' as never)).toBe(false);
  });

  it('refuses an RSA-PSS key even with a PSS signature it made: only PKCS#1 v1.5 is Kick’s', () => {
    // Given alone to crypto.verify, an rsa-pss key would accept this signature: the key type is the guard.
    const pssKey = generateKeyPairSync('rsa-pss', { modulusLength: 2048 });
    const data = signedBytes(id, ts, body);
    const pss = sign('sha256', data, { key: pssKey.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING });
    const delivery = { messageId: id, timestamp: ts, body, signature: pss.toString('base64') };
    expect(verifyKickSignature(delivery, pssKey.publicKey)).toBe(false);
  });

  it('works with other RSA sizes by checking the length against the key in use', () => {
    const small = createTestKey(1024);
    const sig = signDelivery(id, ts, body, small.privateKey);
    expect(Buffer.from(sig, 'base64').length).toBe(128);
    expect(verifyKickSignature({ messageId: id, timestamp: ts, body, signature: sig }, small.publicKey)).toBe(true);
    expect(verifyKickSignature({ messageId: id, timestamp: ts, body, signature: sig }, key.publicKey)).toBe(false);
  });
});

describe('decodeCanonicalBase64', () => {
  it('round-trips canonical strings and refuses the rest', () => {
    expect(decodeCanonicalBase64('AAEC')).toEqual(Buffer.from([0, 1, 2]));
    expect(decodeCanonicalBase64('AAE=')).toEqual(Buffer.from([0, 1]));
    expect(decodeCanonicalBase64('AA==')).toEqual(Buffer.from([0]));
    expect(decodeCanonicalBase64('AAF=')).toBeNull(); // non-zero padding bits
    expect(decodeCanonicalBase64('AB==')).toBeNull();
    expect(decodeCanonicalBase64('AAAAAAF=')).toBeNull(); // only the last group can carry pad bits
    expect(decodeCanonicalBase64('AAAAAAE=')).toEqual(Buffer.from([0, 0, 0, 0, 1]));
    expect(decodeCanonicalBase64('AAE')).toBeNull();
    expect(decodeCanonicalBase64('A=AA')).toBeNull();
    expect(decodeCanonicalBase64('AA-_')).toBeNull();
    expect(decodeCanonicalBase64('====')).toBeNull();
  });
});

describe('signatureLength', () => {
  it('is the modulus size in bytes', () => {
    expect(signatureLength(key.publicKey)).toBe(256);
  });
});

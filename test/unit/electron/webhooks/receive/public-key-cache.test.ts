/** The public key cache: one fetch, single flight, refresh at most once a minute, failures not cached. */
import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../../../electron/core/clock';
import {
  createPublicKeyCache,
  readPublicKeyPem,
  verifyWithKeyCache,
} from '../../../../../electron/webhooks/receive/public-key-cache';
import { createTestKey, signDelivery } from '../../../../helpers/webhook-signing';

const keyA = createTestKey();
const keyB = createTestKey();

function setup(pems: (string | Error)[]) {
  const clock = new AdjustableClock({ now: () => 1_750_000_000_000 });
  let calls = 0;
  const logs: string[] = [];
  const cache = createPublicKeyCache({
    clock,
    fetchPublicKey: () => {
      const next = pems[Math.min(calls, pems.length - 1)]!;
      calls++;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
    log: (_level, message) => logs.push(message),
  });
  return { cache, clock, calls: () => calls, logs };
}

describe('readPublicKeyPem', () => {
  it('reads an SPKI RSA PEM and refuses garbage', () => {
    expect(readPublicKeyPem(keyA.publicKeyPem).equals(keyA.publicKey)).toBe(true);
    expect(() => readPublicKeyPem('not a key')).toThrow();
  });
});

describe('createPublicKeyCache', () => {
  it('fetches once and serves the cached key after', async () => {
    const { cache, calls } = setup([keyA.publicKeyPem]);
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(a.equals(keyA.publicKey)).toBe(true);
    expect(b).toBe(a);
    await cache.get();
    expect(calls()).toBe(1);
  });

  it('does not cache a failure, but fails fast for a few seconds after one', async () => {
    const { cache, clock, calls } = setup([new Error('offline'), keyA.publicKeyPem]);
    await expect(cache.get()).rejects.toThrow('offline');
    await expect(cache.get()).rejects.toThrow('offline');
    expect(calls()).toBe(1);
    clock.advance(5_000);
    expect((await cache.get()).equals(keyA.publicKey)).toBe(true);
    expect(calls()).toBe(2);
  });

  it('rejects a PEM that is not an RSA public key', async () => {
    const { cache } = setup(['-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n']);
    await expect(cache.get()).rejects.toThrow();
  });

  it('refreshes at most once a minute after a failure, and only reports a changed key', async () => {
    const { cache, clock, calls, logs } = setup([keyA.publicKeyPem, keyA.publicKeyPem, keyB.publicKeyPem]);
    await cache.get();
    expect(await cache.refreshAfterFailure()).toBeNull(); // within the minute of the first fetch
    expect(calls()).toBe(1);
    clock.advance(60_000);
    expect(await cache.refreshAfterFailure()).toBeNull(); // refetched: same key
    expect(calls()).toBe(2);
    clock.advance(59_999);
    expect(await cache.refreshAfterFailure()).toBeNull();
    expect(calls()).toBe(2);
    clock.advance(1);
    const [first, second] = await Promise.all([cache.refreshAfterFailure(), cache.refreshAfterFailure()]);
    expect(calls()).toBe(3); // single flight
    expect(first?.equals(keyB.publicKey)).toBe(true);
    expect(second).toBe(first);
    expect((await cache.get()).equals(keyB.publicKey)).toBe(true);
    expect(logs).toContain('webhook public key changed');
  });

  it('keeps the old key when a refresh fetch fails, and never rejects', async () => {
    const { cache, clock, logs } = setup([keyA.publicKeyPem, new Error('503')]);
    await cache.get();
    clock.advance(60_000);
    expect(await cache.refreshAfterFailure()).toBeNull();
    expect((await cache.get()).equals(keyA.publicKey)).toBe(true);
    expect(logs).toContain('webhook public key refetch failed');
  });

  it('handles a fetcher that throws synchronously', async () => {
    const clock = new AdjustableClock({ now: () => 0 });
    const cache = createPublicKeyCache({
      clock,
      fetchPublicKey: () => {
        throw new Error('boom');
      },
    });
    await expect(cache.get()).rejects.toThrow('boom');
    clock.advance(5_000);
    await expect(cache.get()).rejects.toThrow('boom');
  });
});

describe('verifyWithKeyCache', () => {
  const delivery = (privateKey = keyA.privateKey) => {
    const body = Buffer.from('{"a":1}');
    return {
      messageId: 'm1',
      timestamp: '2025-04-01T07:56:19Z',
      body,
      signature: signDelivery('m1', '2025-04-01T07:56:19Z', body, privateKey),
    };
  };

  it('verifies with the cached key, fetching it the first time', async () => {
    const { cache, calls } = setup([keyA.publicKeyPem]);
    expect(await verifyWithKeyCache(cache, delivery(), () => undefined)).toBe('verified');
    expect(await verifyWithKeyCache(cache, delivery(), () => undefined)).toBe('verified');
    expect(calls()).toBe(1);
  });

  it('says key-unavailable when the key cannot be fetched, and logs it', async () => {
    const { cache } = setup([new Error('offline')]);
    const logs: string[] = [];
    expect(await verifyWithKeyCache(cache, delivery(), (_l, message) => logs.push(message))).toBe('key-unavailable');
    expect(logs).toEqual(['webhook public key unavailable']);
  });

  it('retries once with a rotated key when a refetch is allowed', async () => {
    const { cache, clock } = setup([keyA.publicKeyPem, keyB.publicKeyPem]);
    expect(await verifyWithKeyCache(cache, delivery(keyB.privateKey), () => undefined)).toBe('bad-signature');
    clock.advance(60_000);
    expect(await verifyWithKeyCache(cache, delivery(keyB.privateKey), () => undefined)).toBe('verified');
    expect(await verifyWithKeyCache(cache, delivery(keyA.privateKey), () => undefined)).toBe('bad-signature');
  });
});

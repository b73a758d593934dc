/** Dedup by message id and by body hash, the bounded window, age limit, rollback and refill. */
import { describe, expect, it } from 'vitest';
import { createDeliveryDedup, hashBody } from '../../../electron/webhooks/dedup';
import type { JournalRecord } from '../../../electron/webhooks/types';

const T = 1_750_000_000_000;

function record(messageId: string, body: string, receivedAtMs: number): JournalRecord {
  return {
    messageId,
    subscriptionId: 'sub',
    type: 'channel.followed',
    version: '1',
    timestamp: new Date(receivedAtMs).toISOString(),
    receivedAtMs,
    bodyHash: hashBody(Buffer.from(body)),
    body,
  };
}

describe('hashBody', () => {
  it('is the SHA-256 hex of the bytes', () => {
    expect(hashBody(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('createDeliveryDedup', () => {
  it('claims a new delivery once; a repeat of its id is a duplicate', () => {
    const dedup = createDeliveryDedup();
    expect(dedup.claim('m1', 'h1', T)).toBe('new');
    expect(dedup.claim('m1', 'h1', T)).toBe('duplicate-id');
    expect(dedup.claim('m1', 'h2', T)).toBe('duplicate-id');
  });

  it('catches the same payload resent under a new message id', () => {
    const dedup = createDeliveryDedup();
    expect(dedup.claim('m1', 'h1', T)).toBe('new');
    expect(dedup.claim('m2', 'h1', T)).toBe('duplicate-body');
    expect(dedup.claim('m3', 'h3', T)).toBe('new');
  });

  it('release forgets a claim so a retry is accepted', () => {
    const dedup = createDeliveryDedup();
    expect(dedup.claim('m1', 'h1', T)).toBe('new');
    dedup.release('m1', 'h1');
    expect(dedup.size()).toEqual({ ids: 0, bodies: 0 });
    expect(dedup.claim('m1', 'h1', T)).toBe('new');
  });

  it('keeps only the newest maxEntries of each, dropping the oldest first', () => {
    const dedup = createDeliveryDedup({ maxEntries: 3 });
    for (let i = 1; i <= 4; i++) {
      expect(dedup.claim(`m${i}`, `h${i}`, T + i)).toBe('new');
    }
    expect(dedup.size()).toEqual({ ids: 3, bodies: 3 });
    expect(dedup.claim('m1', 'hx', T + 10)).toBe('new'); // m1 was evicted
    expect(dedup.claim('my', 'h3', T + 10)).toBe('duplicate-body'); // h3 is still held
    expect(dedup.claim('m4', 'hz', T + 10)).toBe('duplicate-id');
  });

  it('holds at most maxEntries under a long stream of deliveries', () => {
    const dedup = createDeliveryDedup({ maxEntries: 1000 });
    for (let i = 0; i < 20_000; i++) {
      dedup.claim(`m${i}`, `h${i}`, T + i);
    }
    expect(dedup.size()).toEqual({ ids: 1000, bodies: 1000 });
    expect(dedup.claim('m19999', 'new-hash', T + 20_000)).toBe('duplicate-id');
    expect(dedup.claim('m0', 'h0', T + 20_000)).toBe('new');
  });

  it('with maxAgeMs, entries older than the age no longer count and are dropped', () => {
    const dedup = createDeliveryDedup({ maxAgeMs: 60_000 });
    expect(dedup.claim('m1', 'h1', T)).toBe('new');
    expect(dedup.claim('m1', 'h1', T + 60_000)).toBe('duplicate-id');
    expect(dedup.claim('m2', 'h1', T + 60_000)).toBe('duplicate-body');
    expect(dedup.claim('m1', 'h1', T + 60_001)).toBe('new');
    expect(dedup.claim('m9', 'h9', T + 200_000)).toBe('new');
    expect(dedup.size()).toEqual({ ids: 1, bodies: 1 });
  });

  it('without maxAgeMs, age does not matter', () => {
    const dedup = createDeliveryDedup();
    dedup.claim('m1', 'h1', T);
    expect(dedup.claim('m1', 'h1', T + 365 * 86_400_000)).toBe('duplicate-id');
  });

  it('remember refills the window from the journal', () => {
    const dedup = createDeliveryDedup({ maxEntries: 2 });
    for (const r of [record('a', '{"n":1}', T), record('b', '{"n":2}', T + 1), record('c', '{"n":3}', T + 2)]) {
      dedup.remember(r);
    }
    expect(dedup.size()).toEqual({ ids: 2, bodies: 2 });
    expect(dedup.claim('b', 'other', T + 5)).toBe('duplicate-id');
    expect(dedup.claim('new-id', hashBody(Buffer.from('{"n":3}')), T + 5)).toBe('duplicate-body');
    expect(dedup.claim('a', hashBody(Buffer.from('{"n":1}')), T + 5)).toBe('new');
  });

  it('remember respects maxAgeMs relative to later claims', () => {
    const dedup = createDeliveryDedup({ maxAgeMs: 1000 });
    dedup.remember(record('a', '{}', T));
    expect(dedup.claim('a', 'x', T + 1000)).toBe('duplicate-id');
    expect(dedup.claim('a', 'x', T + 1001)).toBe('new');
  });

  it('refuses a window smaller than one entry', () => {
    expect(() => createDeliveryDedup({ maxEntries: 0 })).toThrow(RangeError);
  });
});

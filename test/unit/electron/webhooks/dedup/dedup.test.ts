/** Dedup by message id, by event id, by body hash within seconds, pending claims and their outcome, and refill. */
import { describe, expect, it } from 'vitest';
import {
  BODY_DEDUP_WINDOW_MS,
  type Claim,
  createDeliveryDedup,
  type DeliveryDedup,
  hashBody,
} from '../../../../../electron/webhooks/dedup/dedup';
import type { JournalRecord } from '../../../../../electron/webhooks/events/types';

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

/** Claims and, when new, journals it at once (settle true); returns the verdict. */
function accept(
  dedup: DeliveryDedup,
  id: string,
  hash: string,
  at: number,
  event: string | null = null,
): Claim['verdict'] {
  const claim = dedup.claim(id, hash, at, event);
  if (claim.verdict === 'new') {
    claim.settle(true);
  }
  return claim.verdict;
}

describe('hashBody', () => {
  it('is the SHA-256 hex of the bytes', () => {
    expect(hashBody(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes a string as its UTF-8 bytes, as the journal writes it', () => {
    for (const body of ['abc', '{"content":"gg é 💜 \\u0000"}', '\u00ff'.repeat(300)]) {
      expect(hashBody(body)).toBe(hashBody(Buffer.from(body, 'utf8')));
    }
    expect(hashBody('é')).not.toBe(hashBody(Buffer.from('é', 'latin1')));
  });
});

describe('createDeliveryDedup', () => {
  it('claims a new delivery once; a repeat of its id is a duplicate, however much later', () => {
    const dedup = createDeliveryDedup();
    expect(accept(dedup, 'm1', 'h1', T)).toBe('new');
    expect(accept(dedup, 'm1', 'h1', T)).toBe('duplicate-id');
    expect(accept(dedup, 'm1', 'h2', T + 36 * 3_600_000)).toBe('duplicate-id');
  });

  it('takes the same body under a new id as a duplicate only within the window of seconds', () => {
    const dedup = createDeliveryDedup();
    expect(accept(dedup, 'm1', 'title-A', T)).toBe('new');
    // A duplicate subscription delivers the same payload at the same moment.
    expect(accept(dedup, 'm2', 'title-A', T + 900)).toBe('duplicate-body');
    expect(accept(dedup, 'm3', 'title-B', T + 30_000)).toBe('new');
    // The title set back to A a minute later is a real change: shown.
    expect(accept(dedup, 'm4', 'title-A', T + 60_000)).toBe('new');
    expect(accept(dedup, 'm5', 'title-A', T + 60_000 + BODY_DEDUP_WINDOW_MS)).toBe('duplicate-body');
    expect(accept(dedup, 'm6', 'title-A', T + 60_001 + BODY_DEDUP_WINDOW_MS)).toBe('new');
  });

  it('a copy arriving while the original is being journaled waits, and gets 200 once it is kept', async () => {
    const dedup = createDeliveryDedup();
    const original = dedup.claim('m1', 'h1', T);
    const sameId = dedup.claim('m1', 'h1', T);
    const sameBody = dedup.claim('m2', 'h1', T);
    expect(original.verdict).toBe('new');
    expect(sameId).toMatchObject({ verdict: 'pending', by: 'id' });
    expect(sameBody).toMatchObject({ verdict: 'pending', by: 'body' });
    expect(dedup.size()).toEqual({ ids: 0, bodies: 0, pending: 1 });
    if (original.verdict === 'new' && sameId.verdict === 'pending' && sameBody.verdict === 'pending') {
      original.settle(true);
      expect(await sameId.kept).toBe(true);
      expect(await sameBody.kept).toBe(true);
    }
    expect(dedup.size()).toEqual({ ids: 1, bodies: 1, pending: 0 });
    expect(accept(dedup, 'm1', 'h1', T)).toBe('duplicate-id');
  });

  it('a failed write fails its waiting copies too, and forgets the claim so the retries are accepted', async () => {
    const dedup = createDeliveryDedup();
    const original = dedup.claim('m1', 'h1', T);
    const copy = dedup.claim('m1', 'h1', T);
    if (original.verdict !== 'new' || copy.verdict !== 'pending') {
      throw new Error(`unexpected claims ${original.verdict}, ${copy.verdict}`);
    }
    original.settle(false);
    original.settle(true); // only the first outcome counts
    expect(await copy.kept).toBe(false);
    expect(dedup.size()).toEqual({ ids: 0, bodies: 0, pending: 0 });
    expect(accept(dedup, 'm1', 'h1', T + 1000)).toBe('new');
  });

  it('remember refills the ids from the journal; old bodies no longer count', () => {
    const dedup = createDeliveryDedup();
    dedup.remember(record('a', '{"n":1}', T - 3_600_000));
    dedup.remember(record('b', '{"n":2}', T - 1000));
    expect(accept(dedup, 'a', 'other', T)).toBe('duplicate-id');
    expect(accept(dedup, 'new-1', hashBody(Buffer.from('{"n":2}')), T)).toBe('duplicate-body');
    expect(accept(dedup, 'new-2', hashBody(Buffer.from('{"n":1}')), T)).toBe('new');
  });

  it('keeps at most maxBodyHashes body hashes, dropping the oldest', () => {
    const dedup = createDeliveryDedup({ maxBodyHashes: 3 });
    for (let i = 1; i <= 4; i++) {
      accept(dedup, `m${i}`, `h${i}`, T);
    }
    expect(dedup.size().bodies).toBe(3);
    expect(accept(dedup, 'x1', 'h1', T)).toBe('new');
    expect(accept(dedup, 'x4', 'h4', T)).toBe('duplicate-body');
  });

  it("takes the same event under a new id and another body as a duplicate for the id memory's whole retention", () => {
    const dedup = createDeliveryDedup();
    expect(accept(dedup, 'm1', 'chat-1', T, 'EVENT-1')).toBe('new');
    expect(accept(dedup, 'm2', 'chat-1 re-sent', T + 11_000, 'EVENT-1')).toBe('duplicate-event');
    expect(accept(dedup, 'm3', 'chat-1', T + 36 * 3_600_000, 'EVENT-1')).toBe('duplicate-event');
    expect(accept(dedup, 'm4', 'chat-2', T + 11_000, 'EVENT-2')).toBe('new');
    // Without an event id of its own (a follow), only the body window applies.
    expect(accept(dedup, 'm5', 'follow', T, null)).toBe('new');
    expect(accept(dedup, 'm6', 'follow', T + 11_000, null)).toBe('new');
  });

  it('a copy of an event being journaled waits on it; a failed write leaves the event unclaimed', async () => {
    const dedup = createDeliveryDedup();
    const original = dedup.claim('m1', 'h1', T, 'EVENT-1');
    const copy = dedup.claim('m2', 'h2', T, 'EVENT-1');
    if (original.verdict !== 'new' || copy.verdict !== 'pending') {
      throw new Error(`unexpected claims ${original.verdict}, ${copy.verdict}`);
    }
    expect(copy.by).toBe('event');
    original.settle(false);
    expect(await copy.kept).toBe(false);
    expect(accept(dedup, 'm3', 'h3', T, 'EVENT-1')).toBe('new');
  });

  it('remember refills event ids from the journal too', () => {
    const dedup = createDeliveryDedup();
    dedup.remember(record('a', '{"n":1}', T - 3_600_000), 'EVENT-1');
    expect(accept(dedup, 'b', 'other', T, 'EVENT-1')).toBe('duplicate-event');
  });
});
